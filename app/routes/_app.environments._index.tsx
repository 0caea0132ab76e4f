import { Button, Group, Paper, Stack, Text, Title } from "@mantine/core";
import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { errorCodes } from "#contract/errors";
import { EnvironmentsTable } from "~/features/environments/environments-table";
import { environmentPagePaths } from "~/features/environments/paths";
import { Restricted } from "~/components/restricted";
import { useCan } from "~/features/permissions/permissions";
import { environmentTargetLabels } from "~/features/environments/target";
import { listConnections } from "~/platform/connections.server";
import { listEnvironments } from "~/platform/environments.server";
import { listPreviews } from "~/platform/previews.server";
import { requireOrganizationClient } from "~/platform/request.server";
import { throwRouteError } from "~/platform/route-errors.server";

export const meta: MetaFunction = () => [{ title: "Environments · Cloud Console" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const { api, tenantId, organization, headers } = await requireOrganizationClient(request);
  const [environments, accounts, previews] = await Promise.all([
    listEnvironments(api, tenantId),
    listConnections(api, tenantId, { category: "cloud-provider" }),
    listPreviews(api, tenantId),
  ]).catch((error: unknown) => throwRouteError(error, errorCodes.workspaceListFetch, headers));
  // Only the labels go to the browser, not the connections' fields.
  const targets = environmentTargetLabels(environments, accounts);
  // The previews that still have an environment: those the list groups under their source.
  const running = previews.filter((preview) => preview.environmentId);
  return data(
    { environments, targets, previews: running, organizationName: organization.displayName },
    { headers },
  );
}

export default function Environments() {
  const { environments, targets, previews, organizationName } = useLoaderData<typeof loader>();
  const canCreate = useCan("environments.create");
  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Stack gap={0}>
          <Title order={2}>Environments</Title>
          <Text c="dimmed" size="sm">
            {organizationName}
          </Text>
        </Stack>
        {environments.length ? (
          <Restricted allowed={canCreate}>
            <Button component={Link} to={environmentPagePaths.create}>
              Create environment
            </Button>
          </Restricted>
        ) : null}
      </Group>
      {environments.length ? (
        <EnvironmentsTable environments={environments} targets={targets} previews={previews} />
      ) : (
        <Paper withBorder p="xl" data-testid="environments-empty">
          <Stack align="center" gap="sm" ta="center">
            <Title order={3}>No environments yet</Title>
            <Text c="dimmed" maw={420}>
              An environment holds the services of one stage of your delivery. Create the first one to start
              deploying.
            </Text>
            <Restricted allowed={canCreate}>
              <Button component={Link} to={environmentPagePaths.create}>
                Create environment
              </Button>
            </Restricted>
          </Stack>
        </Paper>
      )}
    </Stack>
  );
}
