import { Anchor, Button, Group, Paper, SimpleGrid, Stack, Table, Text, Title } from "@mantine/core";
import {
  data,
  redirect,
  type LoaderFunctionArgs,
  type MetaFunction,
  type LinksFunction,
} from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import type { CostOverview } from "#contract/cost";
import { serviceTypeLabels } from "#contract/service-catalogue";
import { errorCodes } from "#contract/errors";
import { costPagePaths, costSearchString } from "~/features/cost/cost-search";
import { buildCostSearch } from "~/features/cost/cost-search.server";
import { CostChart } from "~/features/cost/lazy-cost-chart";
import { PreviewCosts } from "~/features/cost/preview-costs";
import { ShareTable } from "~/features/cost/share-table";
import { WindowForm } from "~/features/cost/window-form";
import { servicePagePaths } from "~/features/services/paths";
import { isPlatformError } from "~/platform/client.server";
import { getCostOverview } from "~/platform/cost.server";
import { listEnvironmentSummaries } from "~/platform/environments.server";
import { requireOrganizationClient } from "~/platform/request.server";
import { throwRouteError } from "~/platform/route-errors.server";
import { mantineClasses, stripedHoverRowAttributes } from "~/components/mantine-classes";
import { formatUsd } from "~/features/environments/cost";
import { formatDateTime, formatMonth } from "~/components/date-time";
import { mantineFormsSheet } from "~/styles/mantine-sheets";

export const links: LinksFunction = () => [mantineFormsSheet];

export const meta: MetaFunction = () => [{ title: "Cost · Cloud Console" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const { api, tenantId, headers } = await requireOrganizationClient(request);
  const search = buildCostSearch(new URL(request.url).searchParams);
  try {
    if (search.kind === "invalid") {
      const environments = await listEnvironmentSummaries(api, tenantId);
      return data(
        {
          search,
          overview: null,
          month: null,
          environments: environments.map(({ id, name }) => ({ id, name })),
        },
        { headers },
      );
    }
    const overview = await getCostOverview(api, tenantId, search.query);
    // The month's name is written on the server: the browser then needs no month formatter (first-visit bytes).
    const month = formatMonth(overview.accruedUntil);
    return data({ search, overview, month, environments: overview.environments }, { headers });
  } catch (error) {
    // Without billing.view the platform answers 403: the page is not for this member.
    if (isPlatformError(error) && error.status === 403) throw redirect("/401", { headers });
    throwRouteError(error, errorCodes.resourceListFetch, headers);
  }
}

export default function CostOverviewPage() {
  const { search, overview, month, environments } = useLoaderData<typeof loader>();
  const fieldErrors = search.kind === "invalid" ? search.fieldErrors : {};
  return (
    <Stack gap="md">
      <WindowForm values={search.values} fieldErrors={fieldErrors} environments={environments} />
      {overview ? (
        <Overview overview={overview} month={month ?? ""} exportSearch={costSearchString(search.values)} />
      ) : null}
    </Stack>
  );
}

function Overview({
  overview,
  month,
  exportSearch,
}: {
  overview: CostOverview;
  month: string;
  exportSearch: string;
}) {
  const environmentNames = Object.fromEntries(overview.byEnvironment.map(({ key, label }) => [key, label]));
  const serviceTypeNames = Object.fromEntries(overview.byServiceType.map(({ key, label }) => [key, label]));
  return (
    <Stack gap="md">
      <SimpleGrid cols={{ base: 2, md: 4 }}>
        <Figure label="Month to date" value={formatUsd(overview.monthToDate)} />
        <Figure
          label={`Forecast for the end of ${month}`}
          value={formatUsd(overview.forecast)}
          help={overview.forecastMethod}
        />
        <Figure label="Last month" value={formatUsd(overview.lastMonth)} />
        <Figure
          label="Change against last month"
          value={changeOf(overview.changeFromLastMonth)}
          help="The forecast compared with last month's total."
        />
      </SimpleGrid>
      <Paper withBorder p="md">
        <Stack gap="sm">
          <Group justify="space-between" align="flex-end">
            <Stack gap={0}>
              <Title order={3}>
                {overview.window.label}: {formatUsd(overview.total)}
              </Title>
              <Text size="sm" c="dimmed" data-testid="cost-window-range">
                {overview.window.from} to {overview.window.to} (UTC), accrued until{" "}
                {formatDateTime(overview.accruedUntil)}
              </Text>
            </Stack>
            <Button component="a" href={`${costPagePaths.export}${exportSearch}`} download variant="light">
              Export CSV
            </Button>
          </Group>
          <div role="figure" aria-label="Daily cost chart">
            <CostChart
              daily={overview.daily}
              labels={{ byEnvironment: environmentNames, byServiceType: serviceTypeNames }}
            />
          </div>
          <DailyTable overview={overview} environmentNames={environmentNames} />
        </Stack>
      </Paper>
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <ShareTable title="By environment" shares={overview.byEnvironment} total={overview.total} />
        <ShareTable title="By service type" shares={overview.byServiceType} total={overview.total} />
      </SimpleGrid>
      <TopServices overview={overview} />
      <PreviewCosts previews={overview.previews} total={overview.total} />
    </Stack>
  );
}

function Figure({ label, value, help }: { label: string; value: string; help?: string }) {
  return (
    <Paper withBorder p="md" role="group" aria-label={label}>
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text fw={700} size="xl">
        {value}
      </Text>
      {help ? (
        <Text size="xs" c="dimmed">
          {help}
        </Text>
      ) : null}
    </Paper>
  );
}

function changeOf(percent: number | null): string {
  if (percent === null) return "No cost last month";
  return `${percent > 0 ? "+" : ""}${percent.toFixed(1)} %`;
}

const amountStyle = { textAlign: "right" } as const;

/** The chart's figures as a table: a row per day, a column per environment, and the totals. */
function DailyTable({
  overview,
  environmentNames,
}: {
  overview: CostOverview;
  environmentNames: Record<string, string>;
}) {
  const columns = overview.byEnvironment.map(({ key }) => key);
  return (
    <Table.ScrollContainer minWidth={480} mah={360}>
      <Table striped stickyHeader verticalSpacing={4} aria-label="Daily cost">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Day (UTC)</Table.Th>
            {columns.map((key) => (
              <Table.Th key={key} ta="right">
                {environmentNames[key] ?? key}
              </Table.Th>
            ))}
            <Table.Th ta="right">Total</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {/* Plain elements with Mantine's classes: up to 90 days of rows (see mantine-classes.ts). */}
          {overview.daily.map((day) => (
            <tr key={day.date} className={mantineClasses.tr} {...stripedHoverRowAttributes}>
              <td className={mantineClasses.td}>{day.date}</td>
              {columns.map((key) => (
                <td key={key} className={mantineClasses.td} style={amountStyle}>
                  {formatUsd(day.byEnvironment[key] ?? 0)}
                </td>
              ))}
              <td className={mantineClasses.td} style={amountStyle}>
                {formatUsd(day.total)}
              </td>
            </tr>
          ))}
        </Table.Tbody>
        <Table.Tfoot>
          <Table.Tr>
            <Table.Th>Total</Table.Th>
            {overview.byEnvironment.map((share) => (
              <Table.Th key={share.key} ta="right">
                {formatUsd(share.cost)}
              </Table.Th>
            ))}
            <Table.Th ta="right" data-testid="cost-total">
              {formatUsd(overview.total)}
            </Table.Th>
          </Table.Tr>
        </Table.Tfoot>
      </Table>
    </Table.ScrollContainer>
  );
}

function TopServices({ overview }: { overview: CostOverview }) {
  return (
    <Paper withBorder p="md">
      <Title order={3} size="h4" mb="xs">
        Top services
      </Title>
      {overview.topServices.length ? (
        <Table.ScrollContainer minWidth={520}>
          <Table aria-label="Top services">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Service</Table.Th>
                <Table.Th>Type</Table.Th>
                <Table.Th>Environment</Table.Th>
                <Table.Th ta="right">Cost</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {overview.topServices.map((service) => (
                <Table.Tr key={service.resourceId}>
                  <Table.Td>
                    {service.exists ? (
                      <Anchor
                        component={Link}
                        to={servicePagePaths.details(service.environmentName, service.resourceId)}
                      >
                        {service.name}
                      </Anchor>
                    ) : (
                      <Text span>
                        {service.name}{" "}
                        <Text span c="dimmed" size="sm">
                          (deleted)
                        </Text>
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>{serviceTypeLabels[service.serviceType]}</Table.Td>
                  <Table.Td>{service.environmentName}</Table.Td>
                  <Table.Td ta="right">{formatUsd(service.cost)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      ) : (
        <Text c="dimmed">Nothing ran in this window.</Text>
      )}
    </Paper>
  );
}
