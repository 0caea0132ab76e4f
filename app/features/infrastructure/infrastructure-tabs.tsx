import { Stack, Tabs, Text, Title } from "@mantine/core";
import { Link, useLocation } from "@remix-run/react";
import type { ReactNode } from "react";
import { servicePagePaths } from "~/features/services/paths";

/**
 * The heading of the infrastructure pages (SPEC §2.2 Infrastructure) with their tabs: the resources, and the
 * overview of how the environment fits together. Each tab is a link.
 */
export function InfrastructureHeader({
  environmentName,
  actions,
}: {
  environmentName: string;
  actions?: ReactNode;
}) {
  const { pathname } = useLocation();
  const tabs = [
    { value: servicePagePaths.infrastructure(environmentName), label: "Resources" },
    { value: servicePagePaths.infrastructureOverview(environmentName), label: "Overview" },
  ];
  return (
    <Stack gap="sm">
      <Stack gap={4}>
        <Title order={2}>Infrastructure</Title>
        <Text c="dimmed" size="sm">
          The networks, clusters, databases, caches and other resources of {environmentName} that its
          applications run on and use.
        </Text>
      </Stack>
      {actions}
      <Tabs value={pathname}>
        <Tabs.List aria-label="Infrastructure pages">
          {tabs.map((tab) => (
            <Tabs.Tab
              key={tab.value}
              value={tab.value}
              renderRoot={(props) => <Link {...props} to={tab.value} prefetch="intent" />}
            >
              {tab.label}
            </Tabs.Tab>
          ))}
        </Tabs.List>
      </Tabs>
    </Stack>
  );
}
