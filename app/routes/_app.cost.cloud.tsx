import { Paper, SimpleGrid, Stack, Table, Text, Title } from "@mantine/core";
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import type { CloudCost } from "#contract/cost";
import { loadCostPage } from "~/features/cost/cost-page.server";

import { ShareTable } from "~/features/cost/share-table";
import { WindowForm } from "~/features/cost/window-form";
import { getCloudCost } from "~/platform/cost.server";
import { formatUsd } from "~/features/environments/cost";

export const meta: MetaFunction = () => [{ title: "Cloud cost · Cloud Console" }];

export function loader({ request }: LoaderFunctionArgs) {
  return loadCostPage(request, getCloudCost);
}

export default function CloudCostPage() {
  const { search, cost, environments } = useLoaderData<typeof loader>();
  return (
    <Stack gap="md">
      <WindowForm
        values={search.values}
        fieldErrors={search.kind === "invalid" ? search.fieldErrors : {}}
        environments={environments}
      />
      {cost ? <CloudBreakdown cost={cost} /> : null}
    </Stack>
  );
}

function CloudBreakdown({ cost }: { cost: CloudCost }) {
  return (
    <Stack gap="md">
      <Stack gap={0}>
        <Title order={3}>
          {cost.window.label}: {formatUsd(cost.total)}
        </Title>
        <Text size="sm" c="dimmed">
          {cost.window.from} to {cost.window.to} (UTC)
        </Text>
      </Stack>
      <SimpleGrid cols={{ base: 1, md: 3 }}>
        <ShareTable title="By cloud account" shares={cost.byAccount} total={cost.total} />
        <ShareTable title="By region" shares={cost.byRegion} total={cost.total} />
        <ShareTable title="By service category" shares={cost.byCategory} total={cost.total} />
      </SimpleGrid>
      <Paper withBorder p="md">
        <Title order={3} size="h4" mb="xs">
          Account, region and category
        </Title>
        <Table.ScrollContainer minWidth={640}>
          <Table striped aria-label="Cost by account, region and category">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Cloud account</Table.Th>
                <Table.Th>Provider</Table.Th>
                <Table.Th>Region</Table.Th>
                <Table.Th>Service category</Table.Th>
                <Table.Th ta="right">Cost</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {cost.rows.map((row) => (
                <Table.Tr key={`${row.cloudAccount}/${row.region}/${row.category}`}>
                  <Table.Td>{row.cloudAccountLabel}</Table.Td>
                  <Table.Td>{row.cloudProvider}</Table.Td>
                  <Table.Td>{row.region}</Table.Td>
                  <Table.Td>{row.category}</Table.Td>
                  <Table.Td ta="right">{formatUsd(row.cost)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
            <Table.Tfoot>
              <Table.Tr>
                <Table.Th colSpan={4}>Total</Table.Th>
                <Table.Th ta="right">{formatUsd(cost.total)}</Table.Th>
              </Table.Tr>
            </Table.Tfoot>
          </Table>
        </Table.ScrollContainer>
      </Paper>
    </Stack>
  );
}
