import {
  Alert,
  Anchor,
  Card,
  Group,
  NativeSelect,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from "@mantine/core";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import type { ReactNode } from "react";
import { errorCodes } from "#contract/errors";
import { Button } from "~/components/button";
import { Restricted } from "~/components/restricted";
import { cloudProviderLabels, regionLabel } from "~/features/environments/cloud-regions";
import { formatUsd } from "~/features/environments/cost";
import {
  connectionLink,
  observabilityChoices,
  observabilityLinks,
} from "~/features/connections/connection-links.server";
import { StageBadge } from "~/features/environments/stage-badge";
import { useCanInCurrentEnvironment } from "~/features/permissions/permissions";
import { settingsPaths } from "~/features/settings/paths";
import { requireEnvironment, requireEnvironmentIdentity } from "~/features/workspace/workspace.server";
import { userMessageOf } from "~/platform/action-errors.server";
import { isPlatformError } from "~/platform/client.server";
import { listConnections } from "~/platform/connections.server";
import { getEnvironment } from "~/platform/environments.server";
import { throwRouteError } from "~/platform/route-errors.server";
import {
  addObservabilityProvider,
  getObservability,
  removeObservabilityProvider,
} from "~/platform/services.server";
import { dataWithToast } from "~/toast.server";
import { formatDate } from "~/components/date-time";

export const meta: MetaFunction = ({ params }) => [
  { title: `${params.environmentName ?? "Environment"} · Cloud Console` },
];

/**
 * The environment with its totals, which only this page shows (the other pages find it without them), the cloud
 * account it runs in, and the observability connections its metrics are forwarded to.
 */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { api, tenantId, environment, headers } = await requireEnvironmentIdentity(
    request,
    params.environmentName,
    context,
  );
  const [withTotals, connections, observability] = await Promise.all([
    getEnvironment(api, tenantId, environment.id),
    listConnections(api, tenantId),
    getObservability(api, tenantId, environment.id),
  ]).catch((error: unknown) => throwRouteError(error, errorCodes.workspaceListFetch, headers));
  const cloud = connections.find((connection) => connection.id === withTotals.cloudConnectionId);
  const linked = new Set(observability.providers.map((provider) => provider.connectionId));
  return data(
    {
      environment: withTotals,
      cloudAccount: cloud ? connectionLink(cloud) : null,
      observability: observabilityLinks(observability.providers, new Date()),
      observabilityChoices: observabilityChoices(connections, linked),
    },
    { headers },
  );
}

type OverviewActionData = { error: string };

/** Links an observability connection to the environment (its metrics are then forwarded), or unlinks one. */
export async function action({ request, params }: ActionFunctionArgs) {
  const { api, tenantId, environment, headers } = await requireEnvironment(request, params.environmentName);
  const formData = await request.formData();
  const intent = formData.get("intent");
  try {
    if (intent === "link-observability") {
      const connectionId = String(formData.get("connectionId") ?? "");
      if (!connectionId) {
        return data<OverviewActionData>({ error: "Choose a connection to link" }, { status: 400, headers });
      }
      await addObservabilityProvider(api, tenantId, environment.id, connectionId);
      return dataWithToast(null, { variant: "success", message: "Metrics will be forwarded" }, { headers });
    }
    if (intent === "unlink-observability") {
      await removeObservabilityProvider(
        api,
        tenantId,
        environment.id,
        String(formData.get("providerId") ?? ""),
      );
      return dataWithToast(null, { variant: "success", message: "No longer forwarded" }, { headers });
    }
  } catch (error) {
    if (!isPlatformError(error)) throw error;
    const message = userMessageOf(error);
    return dataWithToast<OverviewActionData>(
      { error: message },
      { variant: "error", message },
      { status: error.status || 502, headers },
    );
  }
  throw data({ message: "Unknown form" }, { status: 400, headers });
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Card withBorder aria-label={label} role="group">
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      {children}
    </Card>
  );
}

/** The environment's overview: what it is, where it runs, where it stands, and where its metrics go. */
export default function EnvironmentOverview() {
  const { environment, cloudAccount, observability, observabilityChoices } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const canConfigure = useCanInCurrentEnvironment("environments.configure");
  return (
    <Stack gap="md">
      <SimpleGrid cols={{ base: 1, md: 3 }}>
        <Fact label="Stage">
          <StageBadge stage={environment.stage} mt="xs" />
        </Fact>
        <Fact label="Cloud">
          <Text fw={600} mt="xs">
            {cloudProviderLabels[environment.cloudProvider]}
          </Text>
        </Fact>
        <Fact label="Cloud account">
          {cloudAccount ? (
            <>
              <Anchor component={Link} to={cloudAccount.href} fw={600} mt="xs">
                {cloudAccount.name}
              </Anchor>
              <Text size="xs" c="dimmed">
                {cloudAccount.kind} · {cloudAccount.status}
              </Text>
            </>
          ) : (
            <Text fw={600} mt="xs">
              {environment.cloudConnectionId ? "A deleted connection" : "Simulated cloud"}
            </Text>
          )}
        </Fact>
        <Fact label="Region">
          <Text fw={600} mt="xs">
            {regionLabel(environment.cloudProvider, environment.region)}
          </Text>
          <Text size="xs" c="dimmed" ff="monospace">
            {environment.region}
          </Text>
        </Fact>
        <Fact label="Services">
          <Text fw={600} mt="xs">
            {environment.serviceCount}
          </Text>
        </Fact>
        <Fact label="Monthly cost estimate">
          <Text fw={600} mt="xs">
            {formatUsd(environment.monthlyCostEstimate)}
          </Text>
        </Fact>
        <Fact label="Created">
          <Text fw={600} mt="xs">
            {formatDate(environment.createdAt)}
          </Text>
        </Fact>
        <Fact label="Identifier">
          <Text ff="monospace" size="sm" mt="xs">
            {environment.id}
          </Text>
        </Fact>
      </SimpleGrid>
      <Paper withBorder p="lg" role="region" aria-label="Observability">
        <Stack gap="sm">
          <Title order={3} size="h4">
            Observability
          </Title>
          <Text size="sm" c="dimmed">
            The services&apos; metrics are forwarded every minute to each connection linked here.
          </Text>
          {actionData?.error ? (
            <Alert color="red" role="alert" title="Not done">
              {actionData.error}
            </Alert>
          ) : null}
          {observability.length ? (
            <Stack gap={6} role="list" aria-label="Linked observability connections">
              {observability.map((provider) => (
                <Group key={provider.id} justify="space-between" role="listitem" wrap="nowrap">
                  <Stack gap={0}>
                    <Anchor component={Link} to={provider.href}>
                      {provider.name} ({provider.kind})
                    </Anchor>
                    <Text size="xs" c={provider.lastForwardError ? "red" : "dimmed"}>
                      {provider.lastForwarded}
                      {provider.lastForwardError
                        ? ` · Last attempt failed: ${provider.lastForwardError}`
                        : ""}
                    </Text>
                  </Stack>
                  <Form method="post" preventScrollReset>
                    <input type="hidden" name="providerId" value={provider.id} />
                    <Restricted allowed={canConfigure}>
                      <Button
                        type="submit"
                        name="intent"
                        value="unlink-observability"
                        variant="ghost"
                        size="small"
                        aria-label={`Unlink ${provider.name}`}
                      >
                        Unlink
                      </Button>
                    </Restricted>
                  </Form>
                </Group>
              ))}
            </Stack>
          ) : (
            <Text size="sm">No observability connection is linked.</Text>
          )}
          {observabilityChoices.length ? (
            <Form method="post" preventScrollReset>
              <Group align="flex-end">
                <NativeSelect
                  name="connectionId"
                  label="Observability connection"
                  data={observabilityChoices}
                  disabled={!canConfigure}
                />
                <Restricted allowed={canConfigure}>
                  <Button
                    type="submit"
                    name="intent"
                    value="link-observability"
                    variant="secondary"
                    loading={navigation.formData?.get("intent") === "link-observability"}
                  >
                    Link
                  </Button>
                </Restricted>
              </Group>
            </Form>
          ) : (
            <Text size="sm">
              <Anchor component={Link} to={settingsPaths.connections}>
                Connect Datadog or Middleware
              </Anchor>{" "}
              to forward this environment&apos;s metrics.
            </Text>
          )}
        </Stack>
      </Paper>
    </Stack>
  );
}
