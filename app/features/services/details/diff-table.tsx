import { Table, Text } from "@mantine/core";
import type { ConfigDiff } from "#contract/services";
import { diffRows } from "./config-diff";

/** A configuration diff as `path: before → after` rows. */
export function DiffTable({ diff, label }: { diff: ConfigDiff; label: string }) {
  if (!diff.length) {
    return (
      <Text size="sm" c="dimmed">
        No configuration changes.
      </Text>
    );
  }
  return (
    <Table aria-label={label} fz="sm" withRowBorders={false} verticalSpacing={2}>
      <Table.Tbody>
        {diffRows(diff).map((row) => (
          <Table.Tr key={row.path}>
            <Table.Td ff="monospace">{row.path}</Table.Td>
            <Table.Td c="red.8">{row.before}</Table.Td>
            <Table.Td aria-hidden>→</Table.Td>
            <Table.Td c="teal.8">{row.after}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
