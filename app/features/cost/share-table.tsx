import { Paper, Table, Text, Title } from "@mantine/core";
import type { CostShare } from "#contract/cost";
import { formatUsd } from "~/features/environments/cost";

/** A breakdown of the window's total: each part's cost and share. */
export function ShareTable({ title, shares, total }: { title: string; shares: CostShare[]; total: number }) {
  return (
    <Paper withBorder p="md">
      <Title order={3} size="h4" mb="xs">
        {title}
      </Title>
      {shares.length ? (
        <Table aria-label={title}>
          <Table.Tbody>
            {shares.map((share) => (
              <Table.Tr key={share.key}>
                <Table.Td>{share.label}</Table.Td>
                <Table.Td ta="right">{formatUsd(share.cost)}</Table.Td>
                <Table.Td ta="right" c="dimmed">
                  {total > 0 ? `${((share.cost / total) * 100).toFixed(1)} %` : "—"}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      ) : (
        <Text c="dimmed">Nothing ran in this window.</Text>
      )}
    </Paper>
  );
}
