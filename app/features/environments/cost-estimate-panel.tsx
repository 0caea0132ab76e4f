import { Alert, Group, Loader, Paper, Stack, Table, Text } from "@mantine/core";
import { useFetcher } from "@remix-run/react";
import { useCallback } from "react";
import { formatUsd } from "./cost";
import type { CostChoice, CostEstimateResult } from "./cost-estimate";
import { environmentPagePaths } from "./paths";

/**
 * The estimate shown for the current choice: the one the page loaded, then the latest one asked for with
 * `estimate` (a fetcher loading the estimate resource route).
 */
export function useCostEstimate(initial: CostEstimateResult) {
  const fetcher = useFetcher<CostEstimateResult>();
  const { load } = fetcher;
  const estimate = useCallback(
    (choice: CostChoice) => load(environmentPagePaths.estimateCost(choice)),
    [load],
  );
  return { result: fetcher.data ?? initial, loading: fetcher.state !== "idle", estimate };
}

export function CostEstimatePanel({
  result,
  loading,
  title = "Estimated monthly cost",
}: {
  result: CostEstimateResult;
  loading: boolean;
  title?: string;
}) {
  return (
    <Paper withBorder p="md" aria-label={title} role="region" aria-busy={loading}>
      <Stack gap="xs">
        <Group justify="space-between">
          <Text fw={600}>{title}</Text>
          {loading ? (
            <Loader size="xs" aria-label="Updating the estimate" />
          ) : result.kind === "estimate" ? (
            <Text fw={700} size="lg" data-testid="monthly-cost-estimate">
              {formatUsd(result.estimate.monthlyCost)}
            </Text>
          ) : null}
        </Group>
        {result.kind === "error" ? (
          <Alert color="yellow" title="No estimate">
            {result.message}
          </Alert>
        ) : result.estimate.breakdown.length ? (
          <Table withRowBorders={false} verticalSpacing={2} fz="sm">
            <Table.Tbody>
              {result.estimate.breakdown.map((line) => (
                <Table.Tr key={line.item}>
                  <Table.Td c="dimmed">{line.item}</Table.Td>
                  <Table.Td ta="right">{formatUsd(line.monthlyCost)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        ) : null}
      </Stack>
    </Paper>
  );
}
