import { Anchor, Group, Paper, SimpleGrid, Stack, Table, Text, Title } from "@mantine/core";
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData, useLocation } from "@remix-run/react";
import type { KubernetesCost, KubernetesCluster } from "#contract/cost";
import { loadCostPage } from "~/features/cost/cost-page.server";
import { costPagePaths, costSearchString, type CostSearchValues } from "~/features/cost/cost-search";
import { WindowForm } from "~/features/cost/window-form";
import { getKubernetesCost } from "~/platform/cost.server";
import { formatUsd } from "~/features/environments/cost";

export const meta: MetaFunction = () => [{ title: "Kubernetes cost · Cloud Console" }];

export function loader({ request }: LoaderFunctionArgs) {
  return loadCostPage(request, getKubernetesCost);
}

/** Where the drill-down is: every cluster, one cluster's namespaces, or one namespace's workloads. */
function placeOf(search: string) {
  const params = new URLSearchParams(search);
  return { cluster: params.get("cluster") ?? "", namespace: params.get("namespace") ?? "" };
}

export default function KubernetesCostPage() {
  const { search, cost, environments } = useLoaderData<typeof loader>();
  const place = placeOf(useLocation().search);
  const keep = Object.fromEntries(Object.entries(place).filter(([, value]) => value));
  return (
    <Stack gap="md">
      <WindowForm
        values={search.values}
        fieldErrors={search.kind === "invalid" ? search.fieldErrors : {}}
        environments={environments}
        keep={keep}
      />
      {cost ? <Allocation cost={cost} values={search.values} place={place} /> : null}
    </Stack>
  );
}

function Allocation({
  cost,
  values,
  place,
}: {
  cost: KubernetesCost;
  values: CostSearchValues;
  place: { cluster: string; namespace: string };
}) {
  const cluster = cost.clusters.find((candidate) => candidate.resourceId === place.cluster);
  const namespace = cluster?.namespaces.find((candidate) => candidate.name === place.namespace);
  const link = (changes: Record<string, string>) =>
    `${costPagePaths.kubernetes}${costSearchString(values, changes)}`;
  return (
    <Stack gap="md">
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <Paper withBorder p="md" role="group" aria-label="Clusters' cost">
          <Text size="sm" c="dimmed">
            {cost.window.label} ({cost.window.from} to {cost.window.to}, UTC)
          </Text>
          <Text fw={700} size="xl">
            {formatUsd(cost.total)}
          </Text>
        </Paper>
        <Paper withBorder p="md" role="group" aria-label="Idle cost">
          <Text size="sm" c="dimmed">
            Idle: capacity no workload requested
          </Text>
          <Text fw={700} size="xl">
            {formatUsd(cost.idleCost)}
          </Text>
        </Paper>
      </SimpleGrid>
      {/* Mantine's Breadcrumbs would join the chunk every page loads (decision 014): plain links do the same. */}
      <Group component="nav" aria-label="Drill-down" gap="xs">
        <Anchor component={Link} to={link({})}>
          Clusters
        </Anchor>
        {cluster ? (
          <>
            <Text span c="dimmed" aria-hidden>
              /
            </Text>
            <Anchor component={Link} to={link({ cluster: cluster.resourceId })}>
              {cluster.name}
            </Anchor>
          </>
        ) : null}
        {cluster && namespace ? (
          <>
            <Text span c="dimmed" aria-hidden>
              /
            </Text>
            <Text span aria-current="page">
              {namespace.name}
            </Text>
          </>
        ) : null}
      </Group>
      {cluster && namespace ? (
        <WorkloadsTable namespace={namespace} />
      ) : cluster ? (
        <NamespacesTable cluster={cluster} link={link} />
      ) : (
        <ClustersTable clusters={cost.clusters} link={link} />
      )}
    </Stack>
  );
}

const percent = (value: number) => `${value.toFixed(1)} %`;
const amount = (value: number, unit: string) => `${value.toFixed(2)} ${unit}`;

function ClustersTable({
  clusters,
  link,
}: {
  clusters: KubernetesCluster[];
  link: (changes: Record<string, string>) => string;
}) {
  if (!clusters.length) {
    return <Text c="dimmed">No Kubernetes cluster or control plane ran in this window.</Text>;
  }
  return (
    <Table.ScrollContainer minWidth={820}>
      <Table striped aria-label="Clusters">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Cluster</Table.Th>
            <Table.Th>Environment</Table.Th>
            <Table.Th>Region</Table.Th>
            <Table.Th ta="right">Capacity</Table.Th>
            <Table.Th ta="right">Cost</Table.Th>
            <Table.Th ta="right">Requested</Table.Th>
            <Table.Th ta="right">Used</Table.Th>
            <Table.Th ta="right">Idle</Table.Th>
            <Table.Th ta="right">Efficiency</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {clusters.map((cluster) => (
            <Table.Tr key={cluster.resourceId}>
              <Table.Td>
                <Anchor component={Link} to={link({ cluster: cluster.resourceId })}>
                  {cluster.name}
                </Anchor>
              </Table.Td>
              <Table.Td>{cluster.environmentName}</Table.Td>
              <Table.Td>{cluster.region}</Table.Td>
              <Table.Td ta="right">
                {amount(cluster.cpuCapacity, "vCPU")}, {amount(cluster.memoryGbCapacity, "GB")}
              </Table.Td>
              <Table.Td ta="right">{formatUsd(cluster.cost)}</Table.Td>
              <Table.Td ta="right">{formatUsd(cluster.requestedCost)}</Table.Td>
              <Table.Td ta="right">{formatUsd(cluster.usedCost)}</Table.Td>
              <Table.Td ta="right">{formatUsd(cluster.idleCost)}</Table.Td>
              <Table.Td ta="right">{percent(cluster.efficiency)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function NamespacesTable({
  cluster,
  link,
}: {
  cluster: KubernetesCluster;
  link: (changes: Record<string, string>) => string;
}) {
  return (
    <Stack gap="xs">
      <Title order={3} size="h4">
        Namespaces of {cluster.name}
      </Title>
      <Text size="sm" c="dimmed">
        {formatUsd(cluster.cost)} in this window, of which {formatUsd(cluster.idleCost)} idle ·{" "}
        {percent(cluster.efficiency)} of it used
      </Text>
      <Table.ScrollContainer minWidth={720}>
        <Table striped aria-label="Namespaces">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Namespace</Table.Th>
              <Table.Th ta="right">vCPU requested / used</Table.Th>
              <Table.Th ta="right">Memory requested / used</Table.Th>
              <Table.Th ta="right">Requested</Table.Th>
              <Table.Th ta="right">Used</Table.Th>
              <Table.Th ta="right">Efficiency</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {cluster.namespaces.map((namespace) => (
              <Table.Tr key={namespace.name}>
                <Table.Td>
                  <Anchor
                    component={Link}
                    to={link({ cluster: cluster.resourceId, namespace: namespace.name })}
                  >
                    {namespace.name}
                  </Anchor>
                </Table.Td>
                <Table.Td ta="right">
                  {namespace.cpuRequested.toFixed(2)} / {namespace.cpuUsed.toFixed(2)}
                </Table.Td>
                <Table.Td ta="right">
                  {amount(namespace.memoryGbRequested, "GB")} / {amount(namespace.memoryGbUsed, "GB")}
                </Table.Td>
                <Table.Td ta="right">{formatUsd(namespace.requestedCost)}</Table.Td>
                <Table.Td ta="right">{formatUsd(namespace.usedCost)}</Table.Td>
                <Table.Td ta="right">{percent(namespace.efficiency)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Stack>
  );
}

function WorkloadsTable({ namespace }: { namespace: KubernetesCluster["namespaces"][number] }) {
  return (
    <Stack gap="xs">
      <Title order={3} size="h4">
        Workloads in {namespace.name}
      </Title>
      <Table.ScrollContainer minWidth={820}>
        <Table striped aria-label="Workloads">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Workload</Table.Th>
              <Table.Th>Kind</Table.Th>
              <Table.Th ta="right">Replicas</Table.Th>
              <Table.Th ta="right">vCPU requested / used</Table.Th>
              <Table.Th ta="right">Memory requested / used</Table.Th>
              <Table.Th ta="right">Requested</Table.Th>
              <Table.Th ta="right">Used</Table.Th>
              <Table.Th ta="right">Efficiency</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {namespace.workloads.map((workload) => (
              <Table.Tr key={workload.name}>
                <Table.Td>{workload.name}</Table.Td>
                <Table.Td>{workload.kind}</Table.Td>
                <Table.Td ta="right">{workload.replicas.toFixed(1)}</Table.Td>
                <Table.Td ta="right">
                  {workload.cpuRequested.toFixed(2)} / {workload.cpuUsed.toFixed(2)}
                </Table.Td>
                <Table.Td ta="right">
                  {amount(workload.memoryGbRequested, "GB")} / {amount(workload.memoryGbUsed, "GB")}
                </Table.Td>
                <Table.Td ta="right">{formatUsd(workload.requestedCost)}</Table.Td>
                <Table.Td ta="right">{formatUsd(workload.usedCost)}</Table.Td>
                <Table.Td ta="right">{percent(workload.efficiency)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Stack>
  );
}
