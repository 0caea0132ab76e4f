import { Card, SimpleGrid, Text } from "@mantine/core";
import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import type { ReactNode } from "react";
import { errorCodes } from "#contract/errors";
import { cloudProviderLabels, regionLabel } from "~/features/environments/cloud-regions";
import { formatUsd } from "~/features/environments/cost";
import { StageBadge } from "~/features/environments/stage-badge";
import { requireEnvironment } from "~/features/workspace/workspace.server";
import { getEnvironment } from "~/platform/environments.server";
import { throwRouteError } from "~/platform/route-errors.server";

export const meta: MetaFunction = ({ params }) => [
  { title: `${params.environmentName ?? "Environment"} · Cloud Console` },
];

/** The environment with its totals, which only this page shows (the other pages find it without them). */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { api, tenantId, environment, headers } = await requireEnvironment(
    request,
    params.environmentName,
    context,
  );
  const withTotals = await getEnvironment(api, tenantId, environment.id).catch((error: unknown) =>
    throwRouteError(error, errorCodes.workspaceListFetch, headers),
  );
  return data({ environment: withTotals }, { headers });
}

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
  const { environment } = useLoaderData<typeof loader>();
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
