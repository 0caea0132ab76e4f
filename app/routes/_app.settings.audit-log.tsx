import {
  Alert,
  Anchor,
  Button,
  Group,
  LoadingOverlay,
  Paper,
  Select,
  Stack,
  Text,
  Title,
} from "@mantine/core";
import {
  data,
  redirect,
  type LoaderFunctionArgs,
  type MetaFunction,
  type LinksFunction,
} from "@remix-run/node";
import { Form, Link, useLoaderData, useNavigation } from "@remix-run/react";
import { auditActions } from "#contract/audit";
import { errorCodes } from "#contract/errors";
import { AuditTable } from "~/features/audit/audit-table";
import { auditLogPaths, buildAuditSearch, searchWith } from "~/features/audit/audit-filters";
import { DateRangeFields } from "~/components/lazy-date-range-fields";
import { listAuditEvents } from "~/platform/audit.server";
import { isPlatformError } from "~/platform/client.server";
import { listEnvironmentSummaries } from "~/platform/environments.server";
import { requireOrganizationClient } from "~/platform/request.server";
import { throwRouteError } from "~/platform/route-errors.server";
import { mantineFormsSheet } from "~/styles/mantine-sheets";

export const links: LinksFunction = () => [mantineFormsSheet];

export const meta: MetaFunction = () => [{ title: "Audit log · Cloud Console" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const { api, tenantId, headers } = await requireOrganizationClient(request);
  const search = buildAuditSearch(new URL(request.url).searchParams);
  try {
    const [environments, list] = await Promise.all([
      listEnvironmentSummaries(api, tenantId),
      // Bad filters are told on the form; the list then shows no page rather than a wrong one.
      listAuditEvents(api, tenantId, search.kind === "query" ? search.query : {}),
    ]);
    return data(
      {
        search,
        list: search.kind === "query" ? list : null,
        people: list.people,
        environments: environments.map(({ id, name }) => ({ value: id, label: name })),
        exportSearch: search.kind === "query" ? searchWith(search.values, {}) : null,
      },
      { headers },
    );
  } catch (error) {
    // Without audit.view the platform answers 403: the page is not for this member.
    if (isPlatformError(error) && error.status === 403) throw redirect("/401", { headers });
    throwRouteError(error, errorCodes.resourceListFetch, headers);
  }
}

export default function AuditLog() {
  const { search, list, people, environments, exportSearch } = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  const loading = navigation.state === "loading" && navigation.location.pathname === auditLogPaths.page;
  const errors = search.kind === "invalid" ? search.fieldErrors : {};
  const { values } = search;
  const pages = list ? Math.max(1, Math.ceil(list.total / list.pageSize)) : 1;
  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end">
        <Stack gap={0}>
          <Title order={2}>Audit log</Title>
          <Text c="dimmed" size="sm">
            Every change made through the console or the API, allowed or refused.
          </Text>
        </Stack>
        {exportSearch !== null ? (
          <Button component="a" href={`${auditLogPaths.export}${exportSearch}`} download variant="light">
            Export CSV
          </Button>
        ) : null}
      </Group>
      <Form method="get" aria-label="Filter the audit log">
        <Stack gap="sm">
          <Group align="flex-start" grow>
            <Select
              label="Member"
              name="userId"
              data={people.map((person) => ({ value: person.userId, label: person.userEmail }))}
              defaultValue={values.userId || null}
              placeholder="Anyone"
              clearable
              searchable
              error={errors.userId?.[0]}
            />
            <Select
              label="Action"
              name="action"
              data={[...auditActions]}
              defaultValue={values.action || null}
              placeholder="Any action"
              clearable
              searchable
              error={errors.action?.[0]}
            />
            <Select
              label="Environment"
              name="environmentId"
              data={environments}
              defaultValue={values.environmentId || null}
              placeholder="Any environment"
              clearable
              error={errors.environmentId?.[0]}
            />
          </Group>
          <DateRangeFields from={values.from} to={values.to} errors={errors} precision="second" />
          <Group justify="flex-end">
            <Anchor component={Link} to={auditLogPaths.page} size="sm">
              Clear filters
            </Anchor>
            <Button type="submit">Apply filters</Button>
          </Group>
        </Stack>
      </Form>
      {search.kind === "invalid" ? (
        <Alert color="red" title="Cannot filter" role="alert">
          Correct the highlighted fields to filter the log.
        </Alert>
      ) : null}
      <Paper withBorder pos="relative" p="sm">
        <LoadingOverlay visible={loading} aria-label="Loading events" />
        {list && list.events.length ? (
          <Stack gap="sm">
            <AuditTable events={list.events} />
            <Group justify="space-between">
              <Text size="sm" c="dimmed">
                {list.total} event{list.total === 1 ? "" : "s"}, newest first · page {list.page} of {pages}
              </Text>
              <Group gap="xs">
                <Button
                  component={Link}
                  to={searchWith(values, { page: list.page - 1 })}
                  variant="default"
                  size="xs"
                  disabled={list.page <= 1}
                  aria-disabled={list.page <= 1}
                >
                  Previous
                </Button>
                <Button
                  component={Link}
                  to={searchWith(values, { page: list.page + 1 })}
                  variant="default"
                  size="xs"
                  disabled={list.page >= pages}
                  aria-disabled={list.page >= pages}
                >
                  Next
                </Button>
              </Group>
            </Group>
          </Stack>
        ) : list ? (
          <Stack align="center" gap="xs" py="xl" ta="center" data-testid="audit-empty">
            <Title order={3}>No events</Title>
            <Text c="dimmed">
              {list.total === 0 && !exportSearch
                ? "Changes made in this organization will appear here."
                : "No event matches these filters."}
            </Text>
          </Stack>
        ) : null}
      </Paper>
    </Stack>
  );
}
