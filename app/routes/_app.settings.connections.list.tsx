import { Anchor, Group, Stack, Table, Text, Title } from "@mantine/core";
import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { connectionKindDefinitions, connectionPages } from "#contract/connections";
import { errorCodes } from "#contract/errors";
import { usageLabel } from "~/features/connections/catalogue";
import { ConnectionStatusBadge, LastCheck } from "~/features/connections/connection-status";
import { listConnections } from "~/platform/connections.server";
import { requireOrganizationClient } from "~/platform/request.server";
import { throwRouteError } from "~/platform/route-errors.server";

export const meta: MetaFunction = () => [{ title: "All connections · Settings · Cloud Console" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const { api, tenantId, headers } = await requireOrganizationClient(request);
  const connections = await listConnections(api, tenantId).catch((error: unknown) =>
    throwRouteError(error, errorCodes.resourceListFetch, headers),
  );
  return data(
    {
      connections: connections.map(({ id, kind, name, status, lastCheck, usage }) => ({
        id,
        kind,
        name,
        status,
        lastCheck,
        usage,
      })),
      now: new Date().toISOString(),
    },
    { headers },
  );
}

/** Every connection: its kind, status, last check and what uses it. */
export default function ConnectionListPage() {
  const { connections, now } = useLoaderData<typeof loader>();
  return (
    <Stack gap="md">
      <Anchor component={Link} to={connectionPages.index} size="sm">
        ← Connections
      </Anchor>
      <Title order={2}>All connections</Title>
      {connections.length === 0 ? (
        <Text data-testid="no-connections">
          No connections yet.{" "}
          <Anchor component={Link} to={connectionPages.index}>
            Connect a cloud account or a tool
          </Anchor>{" "}
          to see it here.
        </Text>
      ) : (
        <Table striped highlightOnHover aria-label="Connections">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Name</Table.Th>
              <Table.Th>Kind</Table.Th>
              <Table.Th>Status</Table.Th>
              <Table.Th>Last check</Table.Th>
              <Table.Th>Used by</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {connections.map((connection) => (
              <Table.Tr key={connection.id} data-testid={`connection-${connection.name}`}>
                <Table.Td>
                  <Anchor component={Link} to={connectionPages.view(connection.kind, connection.id)}>
                    {connection.name}
                  </Anchor>
                </Table.Td>
                <Table.Td>{connectionKindDefinitions[connection.kind].label}</Table.Td>
                <Table.Td>
                  <ConnectionStatusBadge status={connection.status} />
                </Table.Td>
                <Table.Td>
                  <LastCheck check={connection.lastCheck} now={new Date(now)} />
                </Table.Td>
                <Table.Td>
                  {connection.usage.length ? (
                    <Group gap={4}>
                      {connection.usage.map((usage) => (
                        <Text key={`${usage.type}-${usage.id}`} size="sm">
                          {usageLabel(usage)}
                        </Text>
                      ))}
                    </Group>
                  ) : (
                    <Text size="sm" c="dimmed">
                      Nothing
                    </Text>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  );
}
