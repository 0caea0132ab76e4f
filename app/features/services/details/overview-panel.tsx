import { Badge, Group, Paper, SimpleGrid, Stack, Table, Text, Title } from "@mantine/core";
import { MAX_RETRIES, type Resource } from "#contract/services";
import { StageBadge } from "~/features/environments/stage-badge";
import { EndpointText } from "./service-status";
import { formatDateTime } from "~/components/date-time";

const podColors = { Running: "teal", Pending: "gray", Terminated: "orange" } as const;

/** When the service last finished a deployment successfully, from its history (newest first). */
export function lastDeployedAt(history: Resource["history"]): string | null {
  return history.find((entry) => entry.outcome === "STAGE_COMPLETED")?.finishedAt ?? null;
}

export function OverviewPanel({ service }: { service: Resource }) {
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
      <Stack gap="xs">
        <Title order={3} size="h4">
          Pods
        </Title>
        {service.pods.length ? (
          <Table aria-label="Pods" fz="sm">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th>Status</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {service.pods.map((pod) => (
                <Table.Tr key={pod.name}>
                  <Table.Td ff="monospace">{pod.name}</Table.Td>
                  <Table.Td>
                    <Badge variant="light" color={podColors[pod.status]}>
                      {pod.status}
                    </Badge>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        ) : (
          <Text size="sm" c="dimmed">
            No pods run yet.
          </Text>
        )}
      </Stack>
    </Stack>
  );
}
