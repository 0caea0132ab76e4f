import { Anchor, Stack, Table, Text } from "@mantine/core";
import { Link } from "@remix-run/react";
import type { Environment } from "#contract/environments";
import type { Preview } from "#contract/previews";
import { cloudProviderLabels, regionLabel } from "./cloud-regions";
import { formatUsd } from "./cost";
import { environmentPagePaths } from "./paths";
import { StageBadge } from "./stage-badge";

/** The environments in their order, each pull request's preview right under its source. */
function groupedByPreviewSource(environments: Environment[], previews: Preview[]) {
  const previewOf = new Map(
    previews.flatMap((preview) => (preview.environmentId ? [[preview.environmentId, preview]] : [])),
  );
  const underSource = new Map<string, Environment[]>();
  for (const environment of environments) {
    const sourceId = previewOf.get(environment.id)?.source.id;
    if (sourceId && environments.some((candidate) => candidate.id === sourceId)) {
      underSource.set(sourceId, [...(underSource.get(sourceId) ?? []), environment]);
    }
  }
  const grouped = new Set([...underSource.values()].flat().map((environment) => environment.id));
  return environments
    .filter((environment) => !grouped.has(environment.id))
    .flatMap((environment) => [environment, ...(underSource.get(environment.id) ?? [])])
    .map((environment) => ({ environment, preview: previewOf.get(environment.id) }));
}

/**
 * The organization's environments: where each runs (the provider, and the account or the simulated cloud by
 * `targets`, environmentTargetLabels), what it holds and what it costs a month. A pull request's preview sits under
 * its source, with the pull request's number, title, author and link.
 */
export function EnvironmentsTable({
  environments,
  targets,
  previews = [],
}: {
  environments: Environment[];
  targets: Record<string, string>;
  previews?: Preview[];
}) {
  return (
    <Table striped highlightOnHover aria-label="Environments">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Name</Table.Th>
          <Table.Th>Stage</Table.Th>
          <Table.Th>Cloud</Table.Th>
          <Table.Th>Runs on</Table.Th>
          <Table.Th>Region</Table.Th>
          <Table.Th ta="right">Services</Table.Th>
          <Table.Th ta="right">Monthly cost estimate</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {groupedByPreviewSource(environments, previews).map(({ environment, preview }) => (
          <Table.Tr key={environment.id}>
            <Table.Td pl={preview ? "xl" : undefined}>
              <Stack gap={0}>
                <Anchor component={Link} to={environmentPagePaths.section(environment.name)}>
                  {environment.name}
                </Anchor>
                {preview ? (
                  <Text size="xs" c="dimmed">
                    Preview of {preview.source.name} ·{" "}
                    <Anchor href={preview.pullRequest.url} target="_blank" rel="noreferrer" size="xs">
                      #{preview.pullRequest.number} {preview.pullRequest.title}
                    </Anchor>{" "}
                    by {preview.pullRequest.author}
                  </Text>
                ) : environment.clonedFrom ? (
                  <Text size="xs" c="dimmed">
                    Cloned from {environment.clonedFrom.name}
                  </Text>
                ) : null}
              </Stack>
            </Table.Td>
            <Table.Td>
              <StageBadge stage={environment.stage} />
            </Table.Td>
            <Table.Td>{cloudProviderLabels[environment.cloudProvider]}</Table.Td>
            <Table.Td>{targets[environment.id]}</Table.Td>
            <Table.Td>
              <Text size="sm">{regionLabel(environment.cloudProvider, environment.region)}</Text>
              <Text size="xs" c="dimmed" ff="monospace">
                {environment.region}
              </Text>
            </Table.Td>
            <Table.Td ta="right">{environment.serviceCount}</Table.Td>
            <Table.Td ta="right">{formatUsd(environment.monthlyCostEstimate)}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
