import { Paper, Stack, Table, Text, Title, VisuallyHidden } from "@mantine/core";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData, useNavigation } from "@remix-run/react";
import { errorCodes } from "#contract/errors";
import { creatableServiceTypes, isBusyStage, serviceTypeLabels } from "#contract/service-catalogue";
import { Button } from "~/components/button";
import { mantineClasses } from "~/components/mantine-classes";
import { Restricted } from "~/components/restricted";
import { formatUsd } from "~/features/environments/cost";
import { StageBadge } from "~/features/environments/stage-badge";
import { InfrastructureHeader } from "~/features/infrastructure/infrastructure-tabs";
import {
  INFRASTRUCTURE_PAGE_SIZE,
  groupByType,
  infrastructureFiltersOf,
  infrastructureRowOf,
  type InfrastructureRow,
} from "~/features/infrastructure/inventory";
import { useCanInCurrentEnvironment } from "~/features/permissions/permissions";
import { CreateServiceMenu } from "~/features/services/create-service-menu";
import { hasFilters, pageCount, parseServiceListFilters } from "~/features/services/list-filters";
import { servicePagePaths } from "~/features/services/paths";
import { ServiceFilters } from "~/features/services/service-filters";
import { requireEnvironment, requireEnvironmentIdentity } from "~/features/workspace/workspace.server";
import { useRevalidateWhileBusy } from "~/hooks/use-revalidate-while";
import { userMessageOf } from "~/platform/action-errors.server";
import { isPlatformError } from "~/platform/client.server";
import { throwRouteError } from "~/platform/route-errors.server";
import { listServices, retryService } from "~/platform/services.server";
import { dataWithToast, redirectWithToast } from "~/toast.server";
import { ListPager } from "~/components/list-pager";
import { formatDateTime } from "~/components/date-time";

export const meta: MetaFunction = ({ params }) => [
  { title: `Infrastructure · ${params.environmentName ?? "Environment"} · Cloud Console` },
];

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { api, tenantId, environment, headers } = await requireEnvironmentIdentity(
    request,
    params.environmentName,
    context,
  );
  const filters = infrastructureFiltersOf(parseServiceListFilters(new URL(request.url).searchParams));
  const list = await listServices(api, tenantId, environment.id, {
    ...filters,
    category: "infrastructure",
    pageSize: INFRASTRUCTURE_PAGE_SIZE,
  }).catch((error: unknown) => throwRouteError(error, errorCodes.resourceListFetch, headers));
  const now = new Date();
  return data(
    {
      environmentName: environment.name,
      filters,
      groups: groupByType(list.infrastructure.map((summary) => infrastructureRowOf(summary, now))),
      total: list.total,
      page: list.page,
      pageSize: list.pageSize,
    },
    { headers },
  );
}

/** Retry of a failed resource's deployment; the platform decides whether this member may (services.deploy). */
export async function action({ request, params }: ActionFunctionArgs) {
  const { api, tenantId, environment, headers } = await requireEnvironment(request, params.environmentName);
  const formData = await request.formData();
  const serviceId = String(formData.get("serviceId") ?? "");
  const serviceName = String(formData.get("serviceName") ?? "the resource");
  if (formData.get("intent") !== "retry" || !serviceId) {
    throw data({ message: "Unknown form" }, { status: 400, headers });
  }
  try {
    await retryService(api, tenantId, environment.id, serviceId);
  } catch (error) {
    if (!isPlatformError(error)) throw error;
    const message = userMessageOf(error);
    return dataWithToast(
      { serviceId, error: message },
      { variant: "error", message },
      { status: error.status || 502, headers },
    );
  }
  const here = new URL(request.url);
  throw await redirectWithToast(
    `${here.pathname}${here.search}`,
    { variant: "success", message: `Retrying the deployment of ${serviceName}` },
    { headers },
  );
}

export default function InfrastructurePage() {
  const { environmentName, filters, groups, total, page, pageSize } = useLoaderData<typeof loader>();
  // The list refreshes while the engine works on any of its resources.
  useRevalidateWhileBusy(groups.some((group) => group.rows.some((row) => isBusyStage(row.stage))));
  const pages = pageCount(total, pageSize);

  return (
    <Stack gap="md">
      <InfrastructureHeader environmentName={environmentName} />
      {total === 0 && !hasFilters(filters) ? (
        <Paper withBorder p="xl">
          <Stack align="center" gap="sm">
            <Title order={3}>No infrastructure yet</Title>
            <Text c="dimmed" ta="center" maw={520}>
              Infrastructure is what your applications run on and use: a network, a Kubernetes cluster, a
              database, a cache, a queue, a TLS certificate and more. Create one and the platform provisions
              it in this environment.
            </Text>
            <CreateServiceMenu environmentName={environmentName} label="Create a resource" />
          </Stack>
        </Paper>
      ) : (
        <>
          <ServiceFilters
            action={servicePagePaths.infrastructure(environmentName)}
            filters={filters}
            serviceTypes={creatableServiceTypes}
            label="Filter infrastructure"
          />
          {groups.length ? (
            groups.map((group) => (
              <Stack gap="xs" key={group.serviceType}>
                <Title order={3} size="h4" id={`group-${group.serviceType}`}>
                  {serviceTypeLabels[group.serviceType]} ({group.rows.length})
                </Title>
                <ResourceTable
                  environmentName={environmentName}
                  rows={group.rows}
                  labelledBy={`group-${group.serviceType}`}
                />
              </Stack>
            ))
          ) : (
            <Paper withBorder p="xl">
              <Stack align="center" gap="sm">
                <Title order={3}>No resources match</Title>
                <Text c="dimmed">Try another search or clear the filters.</Text>
                <Button
                  component={Link}
                  to={servicePagePaths.infrastructure(environmentName)}
                  variant="secondary"
                >
                  Clear filters
                </Button>
              </Stack>
            </Paper>
          )}
          <ListPager
            total={total}
            noun="resource"
            page={page}
            pages={pages}
            pathOf={(page) => servicePagePaths.infrastructure(environmentName, { ...filters, page })}
          />
        </>
      )}
    </Stack>
  );
}

function ResourceTable({
  environmentName,
  rows,
  labelledBy,
}: {
  environmentName: string;
  rows: InfrastructureRow[];
  labelledBy: string;
}) {
  return (
    <Table.ScrollContainer minWidth={860}>
      {/* Fixed widths: the groups' tables line up under each other. */}
      <Table striped highlightOnHover layout="fixed" aria-labelledby={labelledBy}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th w="26%">Name</Table.Th>
            <Table.Th w="14%">Stage</Table.Th>
            <Table.Th w="12%">Region</Table.Th>
            <Table.Th w="18%">Size</Table.Th>
            <Table.Th w="12%" ta="right">
              Cost per month
            </Table.Th>
            <Table.Th w="9%">Age</Table.Th>
            <Table.Th w="9%">
              <VisuallyHidden>Actions</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => (
            <Table.Tr key={row.id} data-testid="infrastructure-row">
              <Table.Td>
                <Link
                  to={servicePagePaths.details(environmentName, row.id)}
                  className={mantineClasses.anchor}
                  data-underline="hover"
                >
                  {row.name}
                </Link>
                {row.stage === "STAGE_FAILED" && row.message ? (
                  <Text size="xs" c="red" maw={360}>
                    {row.message}
                    {row.failedSince ? ` (failing since ${formatDateTime(row.failedSince)})` : ""}
                  </Text>
                ) : null}
              </Table.Td>
              <Table.Td>
                <StageBadge stage={row.stage} />
              </Table.Td>
              <Table.Td>{row.region}</Table.Td>
              <Table.Td>{row.size}</Table.Td>
              <Table.Td ta="right">{formatUsd(row.monthlyCost)}</Table.Td>
              <Table.Td>{row.age}</Table.Td>
              <Table.Td>
                {row.stage === "STAGE_FAILED" ? <RetryButton id={row.id} name={row.name} /> : null}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** Retry as a POST form, so it works without JavaScript; restricted for members without services.deploy. */
function RetryButton({ id, name }: { id: string; name: string }) {
  const navigation = useNavigation();
  const canDeploy = useCanInCurrentEnvironment("services.deploy");
  const submitting = navigation.state !== "idle" && navigation.formData?.get("serviceId") === id;
  return (
    <Form method="post" preventScrollReset>
      <input type="hidden" name="serviceId" value={id} />
      <input type="hidden" name="serviceName" value={name} />
      <Restricted allowed={canDeploy}>
        <Button
          type="submit"
          name="intent"
          value="retry"
          variant="secondary"
          size="small"
          loading={submitting}
          aria-label={`Retry ${name}`}
        >
          Retry
        </Button>
      </Restricted>
    </Form>
  );
}
