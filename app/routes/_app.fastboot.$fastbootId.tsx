import { Alert, Anchor, Group, Loader, Paper, Stack, Table, Text, Title } from "@mantine/core";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData, useNavigation } from "@remix-run/react";
import { errorCodes } from "#contract/errors";
import type { FastbootResource } from "#contract/fastboot";
import { Button } from "~/components/button";
import { StageBadge } from "~/features/environments/stage-badge";
import { fastbootPagePaths } from "~/features/fastboot/paths";
import { progressSummary } from "~/features/fastboot/progress";
import { servicePagePaths } from "~/features/services/paths";
import { useRevalidateWhileBusy } from "~/hooks/use-revalidate-while";
import { isPlatformError } from "~/platform/client.server";
import { userMessageOf } from "~/platform/action-errors.server";
import { getFastboot } from "~/platform/fastboot.server";
import { requireOrganizationClient } from "~/platform/request.server";
import { throwRouteError } from "~/platform/route-errors.server";
import { retryService } from "~/platform/services.server";
import { dataWithToast, redirectWithToast } from "~/toast.server";

export const meta: MetaFunction<typeof loader> = ({ data: loaded }) => [
  { title: `Fastboot ${loaded?.fastboot.environment.name ?? ""} · Cloud Console` },
];

/** Where a fastboot stands (issue 17): each service's stage as it moves, failures with logs and retry, the URL. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { api, tenantId, headers } = await requireOrganizationClient(request);
  const fastboot = await getFastboot(api, tenantId, params.fastbootId ?? "").catch((error: unknown) =>
    throwRouteError(error, errorCodes.resourceListFetch, headers),
  );
  return data({ fastboot }, { headers });
}

/** Retry: the failed service deploys again; once it is deployed, what waits for it launches. */
export async function action({ request, params }: ActionFunctionArgs) {
  const { api, tenantId, headers } = await requireOrganizationClient(request);
  const formData = await request.formData();
  const serviceId = String(formData.get("serviceId") ?? "");
  const fastboot = await getFastboot(api, tenantId, params.fastbootId ?? "").catch((error: unknown) =>
    throwRouteError(error, errorCodes.resourceListFetch, headers),
  );
  const service = fastboot.resources.find((resource) => resource.id === serviceId);
  if (formData.get("intent") !== "retry" || !service) {
    throw data({ message: "Unknown form" }, { status: 400, headers });
  }
  try {
    await retryService(api, tenantId, fastboot.environment.id, service.id);
  } catch (error) {
    if (!isPlatformError(error)) throw error;
    const message = userMessageOf(error);
    return dataWithToast(
      { error: message },
      { variant: "error", message },
      { status: error.status || 502, headers },
    );
  }
  throw await redirectWithToast(
    fastbootPagePaths.progress(fastboot.id),
    { variant: "success", message: `Retrying ${service.name}` },
    { headers },
  );
}

export default function FastbootProgress() {
  const { fastboot } = useLoaderData<typeof loader>();
  // The page refreshes while the engine works, like the services list.
  useRevalidateWhileBusy(fastboot.status === "deploying");
  const environmentName = fastboot.environment.name;

  return (
    <Stack gap="md" maw={960}>
      <Stack gap={4}>
        <Title order={2}>
          {fastboot.stackName} in {environmentName}
        </Title>
        <Group gap="xs" aria-live="polite">
          {fastboot.status === "deploying" ? <Loader size="xs" aria-hidden /> : null}
          <Text c="dimmed" data-testid="fastboot-status">
            {progressSummary(fastboot)}
          </Text>
        </Group>
      </Stack>

      {fastboot.status === "completed" && fastboot.application ? (
        <Alert color="green" title="Your application is live" data-testid="fastboot-done">
          <Stack gap="xs">
            {fastboot.application.url ? (
              <Text size="sm">
                {fastboot.application.name} answers at{" "}
                <Anchor href={fastboot.application.url} target="_blank" rel="noopener noreferrer">
                  {fastboot.application.url}
                </Anchor>
              </Text>
            ) : null}
            <Group gap="md">
              <Anchor
                component={Link}
                to={servicePagePaths.details(environmentName, fastboot.application.id)}
              >
                Open {fastboot.application.name}&apos;s overview
              </Anchor>
              <Anchor component={Link} to={servicePagePaths.list(environmentName)}>
                All services of {environmentName}
              </Anchor>
            </Group>
          </Stack>
        </Alert>
      ) : null}

      <Paper withBorder>
        <Table verticalSpacing="sm" aria-label="Services">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Service</Table.Th>
              <Table.Th>Stage</Table.Th>
              <Table.Th>Waits for</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {fastboot.resources.map((resource) => (
              <ResourceRow key={resource.id} resource={resource} environmentName={environmentName} />
            ))}
          </Table.Tbody>
        </Table>
      </Paper>
    </Stack>
  );
}

function ResourceRow({ resource, environmentName }: { resource: FastbootResource; environmentName: string }) {
  const navigation = useNavigation();
  const retrying = navigation.state !== "idle" && navigation.formData?.get("serviceId") === resource.id;
  const stopped = resource.stage === "STAGE_FAILED" || resource.stage === "STAGE_CANCELED";
  return (
    <Table.Tr data-testid={`fastboot-service-${resource.name}`}>
      <Table.Td>
        <Anchor component={Link} to={servicePagePaths.details(environmentName, resource.id)} fw={600}>
          {resource.name}
        </Anchor>
        <Text size="xs" c="dimmed">
          {resource.description}
        </Text>
        {stopped && resource.message ? (
          <Text size="sm" c="red" role="alert">
            {resource.message}
          </Text>
        ) : null}
      </Table.Td>
      <Table.Td>
        <StageBadge stage={resource.stage} />
      </Table.Td>
      <Table.Td>
        <Text size="sm">{resource.dependsOn.length ? resource.dependsOn.join(", ") : "nothing"}</Text>
      </Table.Td>
      <Table.Td>
        {stopped ? (
          <Group gap="xs" justify="flex-end" wrap="nowrap">
            <Anchor
              component={Link}
              to={servicePagePaths.details(environmentName, resource.id, { tab: "logs" })}
            >
              Logs
            </Anchor>
            {resource.stage === "STAGE_FAILED" ? (
              <Form method="post" preventScrollReset>
                <input type="hidden" name="serviceId" value={resource.id} />
                <Button
                  type="submit"
                  name="intent"
                  value="retry"
                  variant="secondary"
                  size="small"
                  loading={retrying}
                  aria-label={`Retry ${resource.name}`}
                >
                  Retry
                </Button>
              </Form>
            ) : null}
          </Group>
        ) : null}
      </Table.Td>
    </Table.Tr>
  );
}
