import { parseSubmission } from "~/components/parse-submission.server";
import { Alert, Anchor, Group, Paper, Stack, Text, Title } from "@mantine/core";
import {
  data,
  redirect,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
  type LinksFunction,
} from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import type { ReactNode } from "react";
import type { SubmissionResult } from "@conform-to/react";
import {
  connectionKindDefinitions,
  connectionKindFromSlug,
  connectionPages,
  type ConnectionCheck,
} from "#contract/connections";
import { errorCodes } from "#contract/errors";
import { Button } from "~/components/button";
import { Restricted } from "~/components/restricted";
import { repositoryListing } from "~/features/connections/catalogue";
import { ChecksTable, ConnectionDetails, UsageList } from "~/features/connections/connection-details";
import { ConnectionStatusBadge, LastCheck } from "~/features/connections/connection-status";
import { deleteConnectionSchema } from "~/features/connections/delete-connection";
import { DeleteConnectionButton } from "~/features/connections/delete-connection-dialog";
import { notificationRulesFormSchema } from "~/features/connections/notification-form";
import { DeliveriesList, NotificationRulesForm } from "~/features/connections/notifications";
import { RepositoriesPanel, type Loaded } from "~/features/connections/repositories-panel";
import { useCan } from "~/features/permissions/permissions";
import { userMessageOf } from "~/platform/action-errors.server";
import { isPlatformError } from "~/platform/client.server";
import {
  deleteConnection,
  getConnection,
  listBranches,
  listConnections,
  listConnectionChecks,
  listDeliveries,
  listRepositories,
  listTags,
  testConnection,
  updateNotificationRules,
} from "~/platform/connections.server";
import { listEnvironmentSummaries } from "~/platform/environments.server";
import { requireOrganizationClient } from "~/platform/request.server";
import { throwRouteError } from "~/platform/route-errors.server";
import { dataWithToast, redirectWithToast } from "~/toast.server";
import { mantineFormsSheet } from "~/styles/mantine-sheets";

export const links: LinksFunction = () => [mantineFormsSheet];

export const meta: MetaFunction<typeof loader> = ({ data: loaded }) => [
  { title: `${loaded?.connection.name ?? "Connection"} · Connections · Cloud Console` },
];

/** What the page's forms get back: the form it is for, a check's result, a refusal, or a form's result. */
type ViewActionData = {
  form: "test" | "delete" | "notifications";
  check?: ConnectionCheck;
  error?: string;
  result?: SubmissionResult<string[]>;
};

async function loadPart<T>(load: () => Promise<T>): Promise<Loaded<T>> {
  try {
    return { kind: "ok", value: await load() };
  } catch (error) {
    if (!isPlatformError(error)) throw error;
    return { kind: "error", message: userMessageOf(error) };
  }
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { api, tenantId, headers } = await requireOrganizationClient(request);
  const kind = connectionKindFromSlug(params.kind ?? "");
  if (!kind) throw redirect("/404", { headers });
  const id = params.id ?? "";
  const repository = new URL(request.url).searchParams.get("repository");
  const notifies = connectionKindDefinitions[kind].category === "communication-platform";
  const listing = repositoryListing(kind);
  const refers = connectionKindDefinitions[kind].methods.some((method) =>
    method.fields.some(
      (field) => field.options === "aws-connections" || field.options === "github-connections",
    ),
  );
  const [connection, checks, others, deliveries, environments, repositories, items] = await Promise.all([
    getConnection(api, tenantId, id),
    listConnectionChecks(api, tenantId, id),
    refers ? listConnections(api, tenantId) : [],
    notifies ? loadPart(() => listDeliveries(api, tenantId, id)) : null,
    notifies ? listEnvironmentSummaries(api, tenantId) : null,
    listing ? loadPart(() => listRepositories(api, tenantId, id)) : null,
    listing && repository
      ? loadPart(async () =>
          listing === "tags"
            ? (await listTags(api, tenantId, id, repository)).map((tag) => ({
                name: tag.name,
                detail: tag.digest,
                at: tag.pushedAt,
              }))
            : (await listBranches(api, tenantId, id, repository)).map((branch) => ({
                name: branch.name,
                detail: branch.commitSha,
                at: null,
              })),
        )
      : null,
  ]).catch((error: unknown) => throwRouteError(error, errorCodes.resourceListFetch, headers));
  // The address names the kind: an old or mistyped one leads to the connection's own.
  if (connection.kind !== kind)
    throw redirect(connectionPages.view(connection.kind, connection.id), { headers });
  const references = Object.fromEntries(
    ["AWS_CONNECTION_ID", "GITHUB_CONNECTION_ID"].flatMap((field) => {
      const referenced = others.find((other) => other.id === connection.fields[field]);
      return referenced
        ? [[field, { name: referenced.name, href: connectionPages.view(referenced.kind, referenced.id) }]]
        : [];
    }),
  );
  return data(
    {
      connection,
      references,
      checks,
      deliveries,
      environments: environments?.map(({ id: environmentId, name }) => ({ id: environmentId, name })) ?? [],
      repositories,
      chosenRepository: repository && items ? { repository, items } : null,
      listing,
      now: new Date().toISOString(),
    },
    { headers },
  );
}

export async function action({ request, params }: ActionFunctionArgs) {
  const { api, tenantId, headers } = await requireOrganizationClient(request);
  const id = params.id ?? "";
  const formData = await request.formData();
  const intent = formData.get("intent");
  const refused = (form: ViewActionData["form"], error: unknown, extra: Partial<ViewActionData> = {}) => {
    if (!isPlatformError(error)) throw error;
    const message = userMessageOf(error);
    return dataWithToast<ViewActionData>(
      { form, error: message, ...extra },
      { variant: "error", message },
      { status: error.status || 502, headers },
    );
  };

  switch (intent) {
    case "test": {
      try {
        const { check } = await testConnection(api, tenantId, id);
        return dataWithToast<ViewActionData>(
          { form: "test", check },
          check.ok
            ? { variant: "success", message: "Connection works" }
            : { variant: "error", message: `Check failed: ${check.message}` },
          { headers },
        );
      } catch (error) {
        // The provider's refusal, when the platform answers one as an error, shows like a failed check.
        return refused("test", error);
      }
    }
    case "delete": {
      const connection = await getConnection(api, tenantId, id).catch((error: unknown) =>
        throwRouteError(error, undefined, headers),
      );
      const submission = parseSubmission(formData, { schema: deleteConnectionSchema(connection.name) });
      if (submission.status !== "success") {
        return data<ViewActionData>({ form: "delete", result: submission.reply() }, { status: 400, headers });
      }
      try {
        await deleteConnection(api, tenantId, id);
      } catch (error) {
        return refused("delete", error, { result: submission.reply() });
      }
      throw await redirectWithToast(
        connectionPages.index,
        { variant: "success", message: `${connection.name} deleted` },
        { headers },
      );
    }
    case "notifications": {
      const submission = parseSubmission(formData, { schema: notificationRulesFormSchema });
      if (submission.status !== "success") {
        return data<ViewActionData>(
          { form: "notifications", result: submission.reply() },
          { status: 400, headers },
        );
      }
      try {
        await updateNotificationRules(api, tenantId, id, submission.value);
      } catch (error) {
        if (isPlatformError(error) && error.fieldErrors) {
          return data<ViewActionData>(
            { form: "notifications", result: submission.reply({ fieldErrors: error.fieldErrors }) },
            { status: error.status, headers },
          );
        }
        return refused("notifications", error, {
          result: submission.reply({ formErrors: [isPlatformError(error) ? userMessageOf(error) : ""] }),
        });
      }
      return dataWithToast<ViewActionData>(
        { form: "notifications", result: submission.reply() },
        { variant: "success", message: "Notification rules saved" },
        { headers },
      );
    }
    default:
      throw data({ message: "Unknown form" }, { status: 400, headers });
  }
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Paper withBorder p="lg" role="region" aria-label={title}>
      <Stack gap="sm">
        <Title order={3} size="h4">
          {title}
        </Title>
        {children}
      </Stack>
    </Paper>
  );
}

/** A connection: its fields (never a secret's value), status, checks, what uses it, and its kind's own parts. */
export default function ConnectionPage() {
  const loaded = useLoaderData<typeof loader>();
  const {
    connection,
    references,
    checks,
    deliveries,
    environments,
    repositories,
    chosenRepository,
    listing,
  } = loaded;
  const actionData = useActionData<ViewActionData>();
  const navigation = useNavigation();
  const canManage = useCan("connections.manage");
  const now = new Date(loaded.now);
  const definition = connectionKindDefinitions[connection.kind];
  const testAnswer = actionData?.form === "test" ? actionData : undefined;
  const environmentNames = new Map(environments.map(({ id, name }) => [id, name]));
  return (
    <Stack gap="md" maw={960}>
      <Anchor component={Link} to={connectionPages.index} size="sm">
        ← Connections
      </Anchor>
      <Group justify="space-between" align="flex-start">
        <Stack gap={4}>
          <Group gap="sm">
            <Title order={2} data-testid="connection-name">
              {connection.name}
            </Title>
            <ConnectionStatusBadge status={connection.status} />
          </Group>
          <Text size="sm" c="dimmed">
            {definition.label} · {definition.description}
          </Text>
          <Group gap={6}>
            <Text size="sm">Last check:</Text>
            <LastCheck check={connection.lastCheck} now={now} />
          </Group>
        </Stack>
        <Group gap="sm">
          <Form method="post" preventScrollReset>
            <Restricted allowed={canManage}>
              <Button
                type="submit"
                name="intent"
                value="test"
                variant="secondary"
                loading={navigation.formData?.get("intent") === "test"}
              >
                Test connection
              </Button>
            </Restricted>
          </Form>
          <Restricted allowed={canManage}>
            <Button component={Link} to={connectionPages.edit(connection.kind, connection.id)}>
              Edit
            </Button>
          </Restricted>
          <DeleteConnectionButton name={connection.name} allowed={canManage} />
        </Group>
      </Group>
      {testAnswer?.check ? (
        <Alert
          color={testAnswer.check.ok ? "green" : "red"}
          title={testAnswer.check.ok ? "Connection works" : "Check failed"}
          data-testid="test-result"
        >
          {testAnswer.check.message}
        </Alert>
      ) : testAnswer?.error ? (
        <Alert color="red" title="Check failed" data-testid="test-result">
          {testAnswer.error}
        </Alert>
      ) : null}
      <Section title="Details">
        <ConnectionDetails connection={connection} references={references} />
      </Section>
      {connection.notifications ? (
        <Section title="Notifications">
          <NotificationRulesForm
            rules={connection.notifications}
            environments={environments}
            canManage={canManage}
            lastResult={actionData?.form === "notifications" ? actionData.result : undefined}
          />
        </Section>
      ) : null}
      {deliveries ? (
        <Section title="Deliveries">
          {deliveries.kind === "error" ? (
            <Alert color="red" title="The deliveries could not be loaded">
              {deliveries.message}
            </Alert>
          ) : (
            <DeliveriesList deliveries={deliveries.value} environmentNames={environmentNames} now={now} />
          )}
        </Section>
      ) : null}
      {repositories && listing ? (
        <Section title="Repositories">
          <RepositoriesPanel repositories={repositories} chosen={chosenRepository} listing={listing} />
        </Section>
      ) : null}
      <Section title="Used by">
        <UsageList usage={connection.usage} />
      </Section>
      <Section title="Checks">
        <ChecksTable checks={checks} now={now} />
      </Section>
    </Stack>
  );
}
