import { Alert, Badge, Group, Paper, SimpleGrid, Stack, Table, Text, Title } from "@mantine/core";
import { MAX_RETRIES, serviceUnitLabels, type ServiceType } from "#contract/service-catalogue";
import { type Resource, type ServiceUnits } from "#contract/services";
import { StageBadge } from "~/features/environments/stage-badge";
import { EndpointText } from "./service-status";
import { formatDateTime } from "~/components/date-time";
import type { LoadedPart } from "./telemetry";

/** The cloud's words for a unit that runs (ECS RUNNING, RDS available, EC2 running, simulated Running). */
const running = /^(running|available|active)$/i;
const starting = /^(pending|provisioning|activating|creating|starting|rebooting|modifying)/i;
const statusColor = (status: string) =>
  running.test(status) ? "teal" : starting.test(status) ? "gray" : "orange";

/** When the service last finished a deployment successfully, from its history (newest first). */
export function lastDeployedAt(history: Resource["history"]): string | null {
  return history.find((entry) => entry.outcome === "STAGE_COMPLETED")?.finishedAt ?? null;
}

export function OverviewPanel({
  service,
  units,
}: {
  service: Resource;
  /** What the service runs now, asked of its cloud by the loader. */
  units: LoadedPart<ServiceUnits>;
}) {
  const facts: [string, React.ReactNode][] = [
    ["Status", <StageBadge key="stage" stage={service.stage} />],
    ["Endpoint", <EndpointText key="endpoint" service={service} />],
    ["Created", formatDateTime(service.createdAt)],
    ["Updated", formatDateTime(service.updatedAt)],
    ["Deployed", formatDateTime(lastDeployedAt(service.history))],
    ["Retries used", `${service.retries} of ${MAX_RETRIES}`],
  ];
  return (
    <Stack gap="md">
      <Paper withBorder p="md">
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          {facts.map(([label, value]) => (
            <Group key={label} gap="xs" wrap="nowrap">
              <Text size="sm" c="dimmed" w={120}>
                {label}
              </Text>
              <Text
                size="sm"
                component="div"
                data-testid={`overview-${label.toLowerCase().replace(" ", "-")}`}
              >
                {value}
              </Text>
            </Group>
          ))}
        </SimpleGrid>
        {service.message ? (
          <Text
            size="sm"
            mt="sm"
            c={service.stage === "STAGE_FAILED" ? "red" : undefined}
            data-testid="overview-message"
          >
            {service.message}
          </Text>
        ) : null}
      </Paper>
      <UnitsSection serviceType={service.serviceType} units={units} />
    </Stack>
  );
}

/**
 * The units the service runs, named as its cloud names them ("Tasks", "Instances", "Nodes"), with the cloud's
 * status of each; "(simulated)" when the simulated cloud made them up. A type that runs none (a queue, a bucket, a
 * function, a network...) shows no section: nothing of the account's runs it.
 */
export function UnitsSection({
  serviceType,
  units,
}: {
  serviceType: ServiceType;
  units: LoadedPart<ServiceUnits>;
}) {
  const label = serviceUnitLabels[serviceType];
  if (!label) return null;
  const simulated = units.kind === "ok" && units.value.simulated;
  return (
    <Stack gap="xs">
      <Title order={3} size="h4">
        {simulated ? `${label} (simulated)` : label}
      </Title>
      {units.kind === "error" ? (
        <Alert color="orange" role="alert" title={`Could not list the ${label.toLowerCase()}`}>
          {units.message}
        </Alert>
      ) : units.value.units.length ? (
        <Table aria-label={label} fz="sm">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Name</Table.Th>
              <Table.Th>Status</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {units.value.units.map((unit) => (
              <Table.Tr key={unit.name}>
                <Table.Td ff="monospace">{unit.name}</Table.Td>
                <Table.Td>
                  <Badge variant="light" color={statusColor(unit.status)}>
                    {unit.status}
                  </Badge>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      ) : (
        <Text size="sm" c="dimmed">
          No {label.toLowerCase()} run now.
        </Text>
      )}
    </Stack>
  );
}
