import { Group, Paper, Stack, Text, Title } from "@mantine/core";
import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { errorCodes } from "#contract/errors";
import { isBusyStage, serviceTypes } from "#contract/service-catalogue";
import { Button } from "~/components/button";
import { CreateServiceMenu } from "~/features/services/create-service-menu";
import {
  SERVICE_LIST_PAGE_SIZE,
  hasFilters,
  pageCount,
  parseServiceListFilters,
} from "~/features/services/list-filters";
import { servicePagePaths } from "~/features/services/paths";
import { ServiceFilters } from "~/features/services/service-filters";
import { ServicesTable, serviceRowOf } from "~/features/services/services-table";
import { requireEnvironmentIdentity } from "~/features/workspace/workspace.server";
import { useRevalidateWhileBusy } from "~/hooks/use-revalidate-while";
import { listServices } from "~/platform/services.server";
import { throwRouteError } from "~/platform/route-errors.server";
import { ListPager } from "~/components/list-pager";

export const meta: MetaFunction = ({ params }) => [
  { title: `Services · ${params.environmentName ?? "Environment"} · Cloud Console` },
];

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { api, tenantId, environment, headers } = await requireEnvironmentIdentity(
    request,
    params.environmentName,
    context,
  );
  const filters = parseServiceListFilters(new URL(request.url).searchParams);
  const list = await listServices(api, tenantId, environment.id, {
    ...filters,
    pageSize: SERVICE_LIST_PAGE_SIZE,
  }).catch((error: unknown) => throwRouteError(error, errorCodes.resourceListFetch, headers));
  return data(
    {
      environmentName: environment.name,
      filters,
      services: list.infrastructure.map(serviceRowOf),
      total: list.total,
      page: list.page,
      pageSize: list.pageSize,
    },
    { headers },
  );
}

export default function ServicesPage() {
  const { environmentName, filters, services, total, page, pageSize } = useLoaderData<typeof loader>();
  // The list refreshes while the engine works on any of its services.
  useRevalidateWhileBusy(services.some((service) => isBusyStage(service.stage)));
  const filtered = hasFilters(filters);
  const pages = pageCount(total, pageSize);

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end">
        <Stack gap={4}>
          <Title order={2}>Services</Title>
          <Text c="dimmed" size="sm">
            The databases, caches, queues, functions and other resources of {environmentName}.
          </Text>
        </Stack>
        <CreateServiceMenu environmentName={environmentName} />
      </Group>

      {total === 0 && !filtered ? (
        <Paper withBorder p="xl">
          <Stack align="center" gap="sm">
            <Title order={3}>No services yet</Title>
            <Text c="dimmed" ta="center" maw={480}>
              Services are what your applications use: a database, a cache, a queue, a serverless function, a
              Kubernetes cluster and more. Create one and the platform provisions it in this environment.
            </Text>
            <CreateServiceMenu environmentName={environmentName} label="Create your first service" />
          </Stack>
        </Paper>
      ) : (
        <>
          <ServiceFilters
            action={servicePagePaths.list(environmentName)}
            filters={filters}
            serviceTypes={serviceTypes}
            label="Filter services"
          />
          {services.length ? (
            <>
              <ServicesTable environmentName={environmentName} services={services} />
              <ListPager
                total={total}
                noun="service"
                page={page}
                pages={pages}
                pathOf={(page) => servicePagePaths.list(environmentName, { ...filters, page })}
              />
            </>
          ) : (
            <Paper withBorder p="xl">
              <Stack align="center" gap="sm">
                <Title order={3}>No services match</Title>
                <Text c="dimmed">Try another search or clear the filters.</Text>
                <Button component={Link} to={servicePagePaths.list(environmentName)} variant="secondary">
                  Clear filters
                </Button>
              </Stack>
            </Paper>
          )}
        </>
      )}
    </Stack>
  );
}
