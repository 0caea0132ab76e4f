import { Alert, Table, Text } from "@mantine/core";
import type { Conflict } from "./conflict";

/** After a stale save: what differs between the user's values and the ones saved now. */
export function ConflictNotice({ conflict }: { conflict: Conflict }) {
  return (
    <Alert color="yellow" title="Someone else changed this service" data-testid="conflict-notice">
      <Text size="sm" mb="xs">
        Your values are kept below. Review the differences and save again to apply yours on top of version{" "}
        {conflict.version}.
      </Text>
      {conflict.changes.length ? (
        <Table aria-label="Differences" fz="sm" withRowBorders={false} verticalSpacing={2}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Field</Table.Th>
              <Table.Th>Your value</Table.Th>
              <Table.Th>Their value</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {conflict.changes.map((change) => (
              <Table.Tr key={change.path}>
                <Table.Td ff="monospace">{change.path}</Table.Td>
                <Table.Td>{change.yours}</Table.Td>
                <Table.Td>{change.theirs}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      ) : (
        <Text size="sm">Their change does not touch the values of this form.</Text>
      )}
    </Alert>
  );
}
