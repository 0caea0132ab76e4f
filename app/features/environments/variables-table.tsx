import { Badge, Code, Group, Paper, Stack, Table, Text, Title, VisuallyHidden } from "@mantine/core";
import type { EnvironmentVariable } from "#contract/environments";
import { DeleteVariableButton } from "./delete-variable-dialog";
import { SecretValue } from "~/components/secret-value";
import { environmentPagePaths } from "./paths";
import { EditVariableButton } from "./variable-form-dialog";
import { revealQuery } from "./variable-forms";

export type VariableRow = EnvironmentVariable & {
  referencedBy: { id: string; name: string; serviceType: string }[];
};

/** The environment's variables with their values (secrets masked), the services using each, and actions. */
export function VariablesTable({
  environmentName,
  variables,
  revealed = null,
  canWrite = true,
  canReveal = true,
}: {
  environmentName: string;
  variables: VariableRow[];
  /** A secret the page revealed (`?reveal={id}`, the way without JavaScript). */
  revealed?: { id: string; value: string } | null;
  /** Whether the user may change the variables; without, a row has no edit and delete buttons. */
  canWrite?: boolean;
  /** Whether the user may reveal secrets; without, Reveal is restricted. */
  canReveal?: boolean;
}) {
  if (variables.length === 0) {
    return (
      <Paper withBorder p="xl" data-testid="variables-empty">
        <Stack align="center" gap="xs" ta="center">
          <Title order={4}>No variables yet</Title>
          <Text c="dimmed" size="sm">
            Add a variable, or import a .env file to add many at once.
          </Text>
        </Stack>
      </Paper>
    );
  }
  return (
    <Table striped aria-label="Variables" verticalSpacing="sm">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Name</Table.Th>
          <Table.Th>Value</Table.Th>
          <Table.Th>Referenced by</Table.Th>
          <Table.Th>
            <VisuallyHidden>Actions</VisuallyHidden>
          </Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {variables.map((variable) => (
          <Table.Tr key={variable.id} data-testid={`variable-${variable.name}`}>
            <Table.Td>
              <Group gap="xs" wrap="nowrap">
                <Text ff="monospace" size="sm" fw={600}>
                  {variable.name}
                </Text>
                {variable.secret ? (
                  <Badge size="xs" variant="light" color="gray">
                    Secret
                  </Badge>
                ) : null}
              </Group>
            </Table.Td>
            <Table.Td maw={360}>
              {variable.secret ? (
                <SecretValue
                  revealUrl={environmentPagePaths.variableValue(environmentName, variable.id)}
                  label={variable.name}
                  testId={`value-${variable.name}`}
                  revealQuery={revealQuery(variable.id)}
                  revealedValue={revealed?.id === variable.id ? revealed.value : null}
                  revealAllowed={canReveal}
                />
              ) : (
                <Code data-testid={`value-${variable.name}`} style={{ wordBreak: "break-all" }}>
                  {variable.value}
                </Code>
              )}
            </Table.Td>
            <Table.Td>
              {variable.referencedBy.length ? (
                <Group gap={4}>
                  {variable.referencedBy.map((service) => (
                    <Badge key={service.id} variant="outline" title={service.serviceType}>
                      {service.name}
                    </Badge>
                  ))}
                </Group>
              ) : (
                <Text size="sm" c="dimmed">
                  No services
                </Text>
              )}
            </Table.Td>
            <Table.Td>
              {canWrite ? (
                <Group gap="xs" justify="flex-end" wrap="nowrap">
                  <EditVariableButton variable={variable} />
                  <DeleteVariableButton variable={variable} />
                </Group>
              ) : null}
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
