import { Anchor, Badge, Group, List, Stack, Table, Text } from "@mantine/core";
import { Link } from "@remix-run/react";
import {
  connectionKindDefinitions,
  methodOf,
  type ConnectionCheck,
  type ConnectionKind,
  type ConnectionUsage,
} from "#contract/connections";
import { environmentPagePaths } from "~/features/environments/paths";
import { agoLabel, secretHint, usageLabel } from "./catalogue";

type DetailedConnection = {
  kind: ConnectionKind;
  method: string;
  fields: Record<string, string>;
  secrets: Record<string, { lastFour: string | null }>;
};

/**
 * The connection's fields as the API gives them: plain values, and for a secret only that it is set (with its last
 * four characters to those who manage connections; never its value).
 */
export function ConnectionDetails({
  connection,
  references,
}: {
  connection: DetailedConnection;
  /** The connections its fields point at (an ECR registry's AWS connection), by field name. */
  references: Record<string, { name: string; href: string }>;
}) {
  const method = methodOf(connection.kind, connection.method);
  const methods = connectionKindDefinitions[connection.kind].methods;
  return (
    <Table variant="vertical" layout="fixed" withTableBorder aria-label="Details">
      <Table.Tbody>
        {methods.length > 1 ? (
          <Table.Tr>
            <Table.Th w={240}>Method</Table.Th>
            <Table.Td>{method?.label ?? connection.method}</Table.Td>
          </Table.Tr>
        ) : null}
        {(method?.fields ?? []).map((field) => {
          const secret = connection.secrets[field.name];
          const reference = references[field.name];
          const value = reference ? (
            <Anchor component={Link} to={reference.href}>
              {reference.name}
            </Anchor>
          ) : (
            connection.fields[field.name]
          );
          return (
            <Table.Tr key={field.name}>
              <Table.Th w={240}>{field.label}</Table.Th>
              <Table.Td data-testid={`field-${field.name}`}>
                {field.secret ? (
                  secret ? (
                    secretHint(secret)
                  ) : (
                    <Text c="dimmed" size="sm" component="span">
                      Not set
                    </Text>
                  )
                ) : (
                  (value ?? (
                    <Text c="dimmed" size="sm" component="span">
                      Not set
                    </Text>
                  ))
                )}
              </Table.Td>
            </Table.Tr>
          );
        })}
      </Table.Tbody>
    </Table>
  );
}

/** Each check of the credentials, newest first: when, by whom, and the provider's answer. */
export function ChecksTable({ checks, now }: { checks: ConnectionCheck[]; now: Date }) {
  if (!checks.length) return <Text size="sm">Not checked yet.</Text>;
  return (
    <Table striped aria-label="Checks">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>When</Table.Th>
          <Table.Th>Result</Table.Th>
          <Table.Th>Answer</Table.Th>
          <Table.Th>By</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {checks.map((check) => (
          <Table.Tr key={check.id}>
            <Table.Td title={check.at}>{agoLabel(check.at, now)}</Table.Td>
            <Table.Td>
              <Badge color={check.ok ? "green" : "red"} variant="light">
                {check.ok ? "OK" : "Failed"}
              </Badge>
            </Table.Td>
            <Table.Td>
              <Stack gap={2}>
                <Text size="sm">{check.message}</Text>
                {check.details.map((detail) => (
                  <Text key={detail} size="xs" c="dimmed">
                    {detail}
                  </Text>
                ))}
              </Stack>
            </Table.Td>
            <Table.Td>{check.actor?.name ?? "The platform"}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/** What relies on the connection; while anything does, it cannot be deleted. */
export function UsageList({ usage }: { usage: ConnectionUsage[] }) {
  if (!usage.length) return <Text size="sm">Nothing uses this connection.</Text>;
  return (
    <List size="sm" aria-label="Used by">
      {usage.map((one) => {
        const environmentName = one.type === "environment" ? one.name : one.environmentName;
        return (
          <List.Item key={`${one.type}-${one.id}`}>
            <Group gap={4}>
              {environmentName ? (
                <Anchor component={Link} to={environmentPagePaths.section(environmentName)}>
                  {usageLabel(one)}
                </Anchor>
              ) : (
                usageLabel(one)
              )}
            </Group>
          </List.Item>
        );
      })}
    </List>
  );
}
