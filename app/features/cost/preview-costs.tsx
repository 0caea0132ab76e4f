import { Anchor, Paper, Table, Text, Title } from "@mantine/core";
import type { PreviewCost } from "#contract/cost";
import { formatUsd } from "~/features/environments/cost";

/**
 * What pull requests' preview environments cost in the window (issue 28): their total and share, then each preview
 * with its pull request and the environment it previews. Nothing when no preview ran in the window.
 */
export function PreviewCosts({ previews, total }: { previews: PreviewCost[]; total: number }) {
  if (!previews.length) return null;
  const spent = Math.round(previews.reduce((sum, preview) => sum + preview.cost, 0) * 100) / 100;
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="preview-costs-title">
      <Title order={3} size="h4" mb={4} id="preview-costs-title">
        Preview environments
      </Title>
      <Text size="sm" c="dimmed" mb="xs" data-testid="preview-costs-total">
        {previews.length === 1 ? "1 pull request's preview" : `${previews.length} pull requests' previews`}{" "}
        cost {formatUsd(spent)} in this window
        {total > 0 ? ` (${((spent / total) * 100).toFixed(1)} % of the total)` : ""}.
      </Text>
      <Table.ScrollContainer minWidth={520}>
        <Table aria-label="Preview environments">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Pull request</Table.Th>
              <Table.Th>Preview of</Table.Th>
              <Table.Th>Environment</Table.Th>
              <Table.Th ta="right">Cost</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {previews.map((preview) => (
              <Table.Tr key={preview.environmentId}>
                <Table.Td>
                  <Anchor href={preview.url} target="_blank" rel="noreferrer">
                    #{preview.number} {preview.title}
                  </Anchor>
                </Table.Td>
                <Table.Td>{preview.sourceName}</Table.Td>
                <Table.Td>{preview.environmentName}</Table.Td>
                <Table.Td ta="right">{formatUsd(preview.cost)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Paper>
  );
}
