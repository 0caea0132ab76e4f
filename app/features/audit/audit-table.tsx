import { Badge, Code, Table, Text } from "@mantine/core";
import type { AuditEvent } from "#contract/audit";
import { formatDateTime } from "~/components/date-time";

function Outcome({ status }: { status: number }) {
  const refused = status === 401 || status === 403;
  const color = status < 400 ? "green" : refused ? "red" : "orange";
  const label = status < 400 ? "Allowed" : refused ? "Refused" : "Failed";
  return (
    <Badge color={color} variant="light">
      {label} · {status}
    </Badge>
  );
}

/** Who made the call: a person, or a service account, and the API token it was made with (decision 070). */
function Who({ event }: { event: AuditEvent }) {
  const who = event.serviceAccount
    ? `Service account ${event.serviceAccount}`
    : (event.userEmail ?? event.userId ?? "—");
  if (!event.tokenName) return <>{who}</>;
  return (
    <>
      {who}
      <Text size="xs" c="dimmed">
        with API token {event.tokenName}
      </Text>
    </>
  );
}

/** The audit log's events, newest first: when, who, what, where, on what and how it ended. */
export function AuditTable({ events }: { events: AuditEvent[] }) {
  return (
    <Table.ScrollContainer minWidth={760}>
      <Table striped verticalSpacing="xs" aria-label="Audit events">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>When (UTC)</Table.Th>
            <Table.Th>Who</Table.Th>
            <Table.Th>Action</Table.Th>
            <Table.Th>Environment</Table.Th>
            <Table.Th>Target</Table.Th>
            <Table.Th>Outcome</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {events.map((event) => (
            <Table.Tr key={event.id}>
              <Table.Td>
                <Text size="sm" title={event.requestId ? `Request ${event.requestId}` : undefined}>
                  {formatDateTime(event.at)}
                </Text>
              </Table.Td>
              <Table.Td>
                <Who event={event} />
              </Table.Td>
              <Table.Td>
                <Code>{event.action}</Code>
              </Table.Td>
              <Table.Td>{event.environmentName ?? event.environmentId ?? "—"}</Table.Td>
              <Table.Td>{event.target ?? "—"}</Table.Td>
              <Table.Td>
                <Outcome status={event.status} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
