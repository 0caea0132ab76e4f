import { Card, SimpleGrid, Text } from "@mantine/core";
import type { MetaFunction } from "@remix-run/node";
import { useRouteLoaderData } from "@remix-run/react";
import type { ReactNode } from "react";
import { cloudProviderLabels, regionLabel } from "~/features/environments/cloud-regions";
import { formatUsd } from "~/features/environments/cost";
import { StageBadge } from "~/features/environments/stage-badge";
import type { loader as environmentLoader } from "./_app.env.$environmentName";

export const meta: MetaFunction = ({ params }) => [
  { title: `${params.environmentName ?? "Environment"} · Cloud Console` },
];

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Card withBorder aria-label={label} role="group">
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      {children}
    </Card>
  );
}

/** The environment's overview: what it is, where it runs and where it stands. */
export default function EnvironmentOverview() {
  const scope = useRouteLoaderData<typeof environmentLoader>("routes/_app.env.$environmentName");
  if (!scope) return null;
  const { environment } = scope;
  return (
    <SimpleGrid cols={{ base: 1, md: 3 }}>
      <Fact label="Stage">
        <StageBadge stage={environment.stage} mt="xs" />
      </Fact>
      <Fact label="Cloud">
        <Text fw={600} mt="xs">
          {cloudProviderLabels[environment.cloudProvider]}
        </Text>
      </Fact>
      <Fact label="Region">
        <Text fw={600} mt="xs">
          {regionLabel(environment.cloudProvider, environment.region)}
        </Text>
        <Text size="xs" c="dimmed" ff="monospace">
          {environment.region}
        </Text>
      </Fact>
      <Fact label="Services">
        <Text fw={600} mt="xs">
          {environment.serviceCount}
        </Text>
      </Fact>
      <Fact label="Monthly cost estimate">
        <Text fw={600} mt="xs">
          {formatUsd(environment.monthlyCostEstimate)}
        </Text>
      </Fact>
      <Fact label="Created">
        <Text fw={600} mt="xs">
          {new Date(environment.createdAt).toLocaleDateString("en", { dateStyle: "medium" })}
        </Text>
      </Fact>
      <Fact label="Identifier">
        <Text ff="monospace" size="sm" mt="xs">
          {environment.id}
        </Text>
      </Fact>
    </SimpleGrid>
  );
}
