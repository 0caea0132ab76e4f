import { Tabs } from "@mantine/core";
import { Link, useLocation } from "@remix-run/react";
import { environmentPagePaths, sectionOfPath, type EnvironmentSection } from "./paths";

const sectionLabels: Record<EnvironmentSection, string> = {
  overview: "Overview",
  config: "Configuration",
  addons: "Add-ons",
  variables: "Variables",
  clone: "Clone progress",
};

/** The environment's sections as tabs; each tab is a link to its page. */
export function EnvironmentTabs({
  environmentName,
  sections,
}: {
  environmentName: string;
  sections: readonly EnvironmentSection[];
}) {
  const current = sectionOfPath(useLocation().pathname);
  return (
    <Tabs value={current}>
      <Tabs.List aria-label="Environment sections">
        {sections.map((section) => (
          <Tabs.Tab
            key={section}
            value={section}
            renderRoot={(props) => (
              <Link
                {...props}
                to={environmentPagePaths.section(environmentName, section)}
                prefetch="intent"
              />
            )}
          >
            {sectionLabels[section]}
          </Tabs.Tab>
        ))}
      </Tabs.List>
    </Tabs>
  );
}
