import { Tabs } from "@mantine/core";
import { Link, useLocation } from "@remix-run/react";
import { costPagePaths } from "./cost-search";

const tabs = [
  { value: costPagePaths.overview, label: "Overview", keepsWindow: true },
  { value: costPagePaths.cloud, label: "Cloud", keepsWindow: true },
  { value: costPagePaths.kubernetes, label: "Kubernetes", keepsWindow: true },
  { value: costPagePaths.budgets, label: "Budgets", keepsWindow: false },
];

/** The cost pages as tabs; each is a link, and the window pages keep the window chosen on the others. */
export function CostTabs() {
  const { pathname, search } = useLocation();
  const keptSearch = tabs.find((tab) => tab.value === pathname)?.keepsWindow ? search : "";
  return (
    <Tabs value={pathname}>
      <Tabs.List aria-label="Cost pages">
        {tabs.map((tab) => (
          <Tabs.Tab
            key={tab.value}
            value={tab.value}
            renderRoot={(props) => (
              <Link {...props} to={`${tab.value}${tab.keepsWindow ? keptSearch : ""}`} prefetch="intent" />
            )}
          >
            {tab.label}
          </Tabs.Tab>
        ))}
      </Tabs.List>
    </Tabs>
  );
}
