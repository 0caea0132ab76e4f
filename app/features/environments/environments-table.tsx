import { Anchor, Stack, Table, Text } from "@mantine/core";
import { Link } from "@remix-run/react";
import type { Environment } from "#contract/environments";
import { cloudProviderLabels, regionLabel } from "./cloud-regions";
import { formatUsd } from "./cost";
import { environmentPagePaths } from "./paths";
import { StageBadge } from "./stage-badge";

/**
 * The organization's environments: where each runs (the provider, and the account or the simulated cloud by
 * `targets`, environmentTargetLabels), what it holds and what it costs a month.
 */
export function EnvironmentsTable({
  environments,
  targets,
}: {
  environments: Environment[];
  targets: Record<string, string>;
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
        {environments.map((environment) => (
          <Table.Tr key={environment.id}>
            <Table.Td>
              <Stack gap={0}>
                <Anchor component={Link} to={environmentPagePaths.section(environment.name)}>
                  {environment.name}
                </Anchor>
                {environment.clonedFrom ? (
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
