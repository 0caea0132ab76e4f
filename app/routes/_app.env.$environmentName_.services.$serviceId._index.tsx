import { parseSubmission } from "~/components/parse-submission.server";
import { Box, Stack, Tabs } from "@mantine/core";
import {
  data,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
  type LinksFunction,
} from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import * as z from "zod";
import { deployCommitRequestSchema } from "#contract/deploy-on-push";
import { errorCodes } from "#contract/errors";
import { isBusyStage } from "#contract/service-catalogue";
import { type Resource } from "#contract/services";
import { ErrorPage } from "~/components/error-page";
import { loadSourceChoices } from "~/features/applications/create.server";
import { editApplicationActionSchema, loadDeployOnPush } from "~/features/applications/details.server";
import { ApplicationConfigTab } from "~/features/applications/lazy-panels";
import { serviceDetailTabs } from "~/features/services/paths";
import { servicePagePaths } from "~/features/services/paths";
import type { ServiceActionData } from "~/features/services/details/action-data";
import { isServiceIntent } from "~/features/services/details/action-data";
import { AttributesPanel } from "~/features/services/details/attributes-panel";
import { conflictOf, isStaleVersion } from "~/features/services/details/conflict";
import { configFormSchema } from "~/features/services/details/config-form.server";
import { CostPanel } from "~/features/services/details/cost-panel";
import { deleteServiceSchema } from "~/features/services/details/delete-service";
import { deletionConsequences } from "~/features/services/deletion.server";
import { TAIL_LOGS_LOG_LIMIT } from "~/features/services/details/dynamic-settings";
import { HistoryPanel } from "~/features/services/details/history-panel";
import { buildLogSearch } from "~/features/services/details/log-query";
import {
  FinalSnapshots,
  ConfigPanel,
  LogsPanel,
  MonitorPanel,
  MonitoringPanel,
} from "~/features/services/details/lazy-panels";
import { OverviewPanel } from "~/features/services/details/overview-panel";
import { PreDeployPanel } from "~/features/services/details/pre-deploy-panel";
import { ServiceHeader } from "~/features/services/details/service-header";
import { SettingsPanel } from "~/features/services/details/settings-panel";
import { mergeSettings, settingsFormSchema, settingsKeyOf } from "~/features/services/details/settings-forms";
import { readDetailsView, serviceTabLabels } from "~/features/services/details/view";
import { requireEnvironment, requireEnvironmentIdentity } from "~/features/workspace/workspace.server";
import { useRevalidateWhileBusy } from "~/hooks/use-revalidate-while";
import { userMessageOf } from "~/platform/action-errors.server";
import { isPlatformError, type PlatformClient } from "~/platform/client.server";
import { createTicket, listConnections } from "~/platform/connections.server";
import { dashboardLinks } from "~/features/connections/connection-links.server";
import { deployCommit, rotateDeployOnPushSecret, setDeployOnPush } from "~/platform/applications.server";
import {
  getServiceAlarms,
  getServiceLogs,
  getServiceMetrics,
  getServiceUnits,
} from "~/platform/resource-telemetry.server";
import { throwRouteError } from "~/platform/route-errors.server";
import {
  cancelService,
  deleteService,
  estimateServiceCost,
  getObservability,
  getService,
  launchServiceDraft,
  planServiceChange,
  retryService,
  saveServiceDraft,
  updateService,
} from "~/platform/services.server";
import { listSnapshots } from "~/platform/snapshots.server";
import { dataWithToast, redirectWithToast } from "~/toast.server";
import { mantineFormsSheet } from "~/styles/mantine-sheets";

export const links: LinksFunction = () => [mantineFormsSheet];

export const meta: MetaFunction<typeof loader> = ({ data: loaded, params }) => [
  {
    title: `${loaded?.service.name ?? "Service"} · ${params.environmentName ?? "Environment"} · Cloud Console`,
  },
];

/** A part of the page that could not be loaded: the page still shows, with the reason in that part. */
export type Loaded<T> = { kind: "ok"; value: T } | { kind: "error"; message: string };

async function loadPart<T>(load: () => Promise<T>): Promise<Loaded<T>> {
  try {
    return { kind: "ok", value: await load() };
  } catch (error) {
    if (!isPlatformError(error)) throw error;
    return { kind: "error", message: userMessageOf(error) };
  }
}

/** Only what the shown tab needs is loaded beside the service itself; secret attribute values never are. */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { api, tenantId, environment, headers } = await requireEnvironmentIdentity(
    request,
    params.environmentName,
    context,
  );
  const serviceId = params.serviceId ?? "";
  const search = new URL(request.url).searchParams;
  const view = readDetailsView(search);
  const at = { api, tenantId, environmentId: environment.id, serviceId };
  // The tab's data does not depend on the service, except the cost estimate (of its configuration).
  const [service, units, telemetry, logs, dashboards] = await Promise.all([
    getService(api, tenantId, environment.id, serviceId).catch((error: unknown) =>
      throwRouteError(error, errorCodes.resourceListFetch, headers),
    ),
    // What it runs now, asked of its cloud: the overview's tasks, instances or nodes.
    view.tab === "overview"
      ? loadPart(() => getServiceUnits(api, tenantId, environment.id, serviceId))
      : null,
    view.tab === "monitoring" || view.tab === "monitor" ? loadTelemetry(at, view.range) : null,
    view.tab === "logs" ? loadLogs(at, view.logType, search) : null,
    // The environment's Datadog or Middleware, where its metrics are also forwarded; without them, no links.
    view.tab === "monitoring"
      ? getObservability(api, tenantId, environment.id).then(
          ({ providers }) => dashboardLinks(providers),
          () => [],
        )
      : [],
  ]);
  const cost =
    view.tab === "cost"
      ? await loadPart(() =>
          estimateServiceCost(api, tenantId, environment.id, {
            serviceType: service.serviceType,
            config: service.config,
            settings: service.settings,
          }),
        )
      : null;
  const editsApplication = view.tab === "config" && service.serviceType === "application";
  const [deployOnPush, applicationEditing] = await Promise.all([
    view.tab === "config" ? loadDeployOnPush(api, tenantId, environment.id, service) : null,
    editsApplication ? loadPart(() => loadSourceChoices(api, tenantId, environment.id)) : null,
  ]);
  // A database's or cache's history ends with the final snapshots kept of it (taken before any deletion).
  const snapshots =
    view.tab === "history" && (service.serviceType === "database" || service.serviceType === "cache")
      ? await loadPart(() =>
          listSnapshots(api, tenantId, environment.id).then((all) =>
            all.filter((snapshot) => snapshot.serviceId === service.id),
          ),
        )
      : null;
  // Only a failed deployment can be reported: the Jira connections are asked for then, not on every visit.
  const ticketManagers =
    service.stage === "STAGE_FAILED"
      ? await listConnections(api, tenantId, { kind: "TICKET_MANAGER_TYPE_JIRA" }).then(
          (connections) => connections.map(({ id, name }) => ({ id, name })),
          () => [],
        )
      : [];
  headers.set("Cache-Control", "no-store");
  return data(
    {
      environmentName: environment.name,
      deletion: deletionConsequences(service, environment),
      service,
      view,
      units,
      telemetry,
      logs,
      cost,
      ticketManagers,
      dashboards,
      deployOnPush,
      applicationEditing,
      snapshots,
      // What the header counts a running step's wait to (the same on the server and in the browser).
      now: new Date().toISOString(),
    },
    { headers },
  );
}

type ServiceAt = { api: PlatformClient; tenantId: string; environmentId: string; serviceId: string };

async function loadTelemetry(at: ServiceAt, range: ReturnType<typeof readDetailsView>["range"]) {
  const [metrics, alarms] = await Promise.all([
    loadPart(() => getServiceMetrics(at.api, at.tenantId, at.environmentId, at.serviceId, { range })),
    loadPart(() => getServiceAlarms(at.api, at.tenantId, at.environmentId, at.serviceId, { range })),
  ]);
  return { metrics, alarms };
}

async function loadLogs(at: ServiceAt, logType: "LIVE" | "SEARCH", search: URLSearchParams) {
  if (logType === "LIVE") {
    const tail = await loadPart(() =>
      getServiceLogs(at.api, at.tenantId, at.environmentId, at.serviceId, {
        logType: "LIVE",
        limit: TAIL_LOGS_LOG_LIMIT,
      }),
    );
    return { logType, tail } as const;
  }
  const query = buildLogSearch(search);
  const [results, pods] = await Promise.all([
    query.kind === "query"
      ? loadPart(() => getServiceLogs(at.api, at.tenantId, at.environmentId, at.serviceId, query.query))
      : null,
    // The pods to choose from: those the service has logged from, even when the search is not valid.
    loadPart(() =>
      getServiceLogs(at.api, at.tenantId, at.environmentId, at.serviceId, { logType: "LIVE", limit: 1 }),
    ),
  ]);
  return {
    logType,
    search: query,
    results,
    podNames: pods.kind === "ok" ? pods.value.podNames : [],
  } as const;
}

export async function action({ request, params }: ActionFunctionArgs) {
  const { api, tenantId, environment, headers } = await requireEnvironment(request, params.environmentName);
  const serviceId = params.serviceId ?? "";
  const formData = await request.formData();
  const intent = formData.get("intent");
  if (!isServiceIntent(intent)) throw data({ message: "Unknown form" }, { status: 400, headers });
  const here = new URL(request.url);
  const pageUrl = `${here.pathname}${here.search}`;
  const refused = (form: string, error: unknown, extra: Partial<ServiceActionData> = {}) => {
    if (!isPlatformError(error)) throw error;
    const message = userMessageOf(error);
    return dataWithToast<ServiceActionData>(
      { form, error: message, ...extra },
      { variant: "error", message },
      { status: error.status || 502, headers },
    );
  };

  switch (intent) {
    case "relaunch":
    case "retry":
    case "cancel": {
      try {
        if (intent === "relaunch") {
          await launchServiceDraft(api, tenantId, environment.id, serviceId, typedConfirmation());
        }
        if (intent === "retry") await retryService(api, tenantId, environment.id, serviceId);
        if (intent === "cancel") await cancelService(api, tenantId, environment.id, serviceId);
      } catch (error) {
        if (intent === "relaunch" && isPlatformError(error) && error.fieldErrors?.confirmation?.[0]) {
          // The draft's deployment replaces the service and deletes its data: its plan, and the name to type.
          const { draft } = await getService(api, tenantId, environment.id, serviceId);
          return planStep(
            intent,
            undefined,
            draft ?? {},
            typedConfirmation() === undefined ? undefined : error.fieldErrors.confirmation[0],
          );
        }
        return refused(intent, error);
      }
      const message = {
        relaunch: "Deployment started",
        retry: "Retrying the deployment",
        cancel: "Canceling the deployment",
      }[intent];
      throw await redirectWithToast(pageUrl, { variant: "success", message }, { headers });
    }
    case "delete": {
      const name = String(formData.get("serviceName") ?? "");
      const submission = parseSubmission(formData, { schema: deleteServiceSchema(name) });
      if (submission.status !== "success") {
        return data<ServiceActionData>(
          { form: "delete", result: submission.reply() },
          { status: 400, headers },
        );
      }
      let removal: Awaited<ReturnType<typeof deleteService>>;
      try {
        removal = await deleteService(api, tenantId, environment.id, serviceId);
      } catch (error) {
        return refused("delete", error, { result: submission.reply() });
      }
      const message =
        removal === "deleted"
          ? `Service ${name} deleted`
          : `Deleting ${name}: tearing down what it created in its cloud account`;
      throw await redirectWithToast(
        servicePagePaths.list(environment.name),
        { variant: "success", message },
        { headers },
      );
    }
    case "discard-draft": {
      const version = Number(formData.get("version"));
      try {
        const current = await getService(api, tenantId, environment.id, serviceId);
        await saveServiceDraft(api, tenantId, environment.id, serviceId, {
          version,
          config: current.config,
          settings: current.settings,
        });
      } catch (error) {
        return refused("discard-draft", error);
      }
      throw await redirectWithToast(pageUrl, { variant: "success", message: "Draft discarded" }, { headers });
    }
    case "create-ticket": {
      try {
        const ticket = await createTicket(api, tenantId, {
          environmentId: environment.id,
          serviceId,
          connectionId: String(formData.get("connectionId") ?? ""),
        });
        return dataWithToast<ServiceActionData>(
          { form: "create-ticket", ticket },
          { variant: "success", message: `Ticket ${ticket.key} created` },
          { headers },
        );
      } catch (error) {
        return refused("create-ticket", error);
      }
    }
    case "save-config":
    case "save-config-draft":
      return saveConfig();
    case "save-settings":
      return saveSettings();
    case "deploy-commit": {
      const submission = parseSubmission(formData, { schema: deployCommitRequestSchema });
      if (submission.status !== "success") {
        return data<ServiceActionData>(
          { form: "deploy-commit", result: submission.reply() },
          { status: 400, headers },
        );
      }
      let answer: Awaited<ReturnType<typeof deployCommit>>;
      try {
        answer = await deployCommit(api, tenantId, environment.id, serviceId, submission.value.ref);
      } catch (error) {
        // GitHub knows no such ref, or the source is not GitHub: said at the field, what was typed kept.
        const onRef = isPlatformError(error) ? error.fieldErrors?.ref : undefined;
        if (onRef) {
          return data<ServiceActionData>(
            { form: "deploy-commit", result: submission.reply({ fieldErrors: { ref: onRef } }) },
            { status: 400, headers },
          );
        }
        return refused("deploy-commit", error, { result: submission.reply() });
      }
      throw await redirectWithToast(pageUrl, { variant: "success", message: answer.message }, { headers });
    }
    case "deploy-on-push":
    case "rotate-deploy-secret": {
      let answer: Awaited<ReturnType<typeof setDeployOnPush>>;
      try {
        answer =
          intent === "deploy-on-push"
            ? await setDeployOnPush(
                api,
                tenantId,
                environment.id,
                serviceId,
                formData.get("enabled") === "true",
              )
            : await rotateDeployOnPushSecret(api, tenantId, environment.id, serviceId);
      } catch (error) {
        return refused("deploy-on-push", error);
      }
      const message =
        intent === "rotate-deploy-secret"
          ? "New secret made: give it to the webhook in GitHub"
          : answer.deployOnPush.enabled
            ? "Deploy on push is on"
            : "Deploy on push is off";
      // The secret is answered once, here: it is never in the page's data.
      return dataWithToast<ServiceActionData>(
        { form: "deploy-on-push", secret: answer.secret },
        { variant: "success", message },
        { headers },
      );
    }
  }

  async function saveConfig() {
    const service = await getService(api, tenantId, environment.id, serviceId).catch((error: unknown) =>
      throwRouteError(error, errorCodes.resourceListFetch, headers),
    );
    // An application is edited through its own form: the contract's application schema, as on the create page.
    const application = service.serviceType === "application";
    const schema = application
      ? await editApplicationActionSchema()
      : z.object({
          intent: z.enum(["save-config", "save-config-draft"]),
          version: z.number().int().positive(),
          config: configFormSchema(service.serviceType),
        });
    const submission = parseSubmission(formData, { schema, disableAutoCoercion: application });
    if (submission.status !== "success") {
      return data<ServiceActionData>(
        { form: "config", result: submission.reply() },
        { status: 400, headers },
      );
    }
    const { version, config } = submission.value as {
      intent: "save-config" | "save-config-draft";
      version: number;
      config: Record<string, unknown>;
    };
    const draft = submission.value.intent === "save-config-draft";
    const confirmation = typedConfirmation();
    try {
      if (draft) await saveServiceDraft(api, tenantId, environment.id, serviceId, { version, config });
      else await updateService(api, tenantId, environment.id, serviceId, { version, config, confirmation });
    } catch (error) {
      const refusal = isPlatformError(error) ? error.fieldErrors?.confirmation?.[0] : undefined;
      if (refusal) {
        return planStep("config", submission.reply(), { config }, confirmation ? refusal : undefined);
      }
      if (isPlatformError(error) && isStaleVersion(error)) {
        return staleReply("config", submission.reply({ formErrors: [error.message] }), config, (current) =>
          editedConfig(current),
        );
      }
      if (isPlatformError(error) && error.fieldErrors) {
        return data<ServiceActionData>(
          { form: "config", result: submission.reply({ fieldErrors: error.fieldErrors }) },
          { status: error.status, headers },
        );
      }
      return refused("config", error, {
        result: submission.reply({ formErrors: [isPlatformError(error) ? userMessageOf(error) : ""] }),
      });
    }
    return dataWithToast<ServiceActionData>(
      { form: "config", result: submission.reply({ resetForm: true }) },
      { variant: "success", message: draft ? "Draft saved" : "Configuration saved; deploying" },
      { headers },
    );
  }

  async function saveSettings() {
    const key = settingsKeyOf(formData);
    if (!key) throw data({ message: "Unknown settings section" }, { status: 400, headers });
    const submission = parseSubmission(formData, { schema: settingsFormSchema(key) });
    if (submission.status !== "success") {
      return data<ServiceActionData>({ form: key, result: submission.reply() }, { status: 400, headers });
    }
    const part = (submission.value as Record<string, unknown>)[key] as Resource["settings"][typeof key];
    try {
      const current = await getService(api, tenantId, environment.id, serviceId);
      await updateService(api, tenantId, environment.id, serviceId, {
        version: submission.value.version,
        settings: mergeSettings(current.settings, key, part),
      });
    } catch (error) {
      if (isPlatformError(error) && isStaleVersion(error)) {
        return staleReply(
          key,
          submission.reply({ formErrors: [error.message] }),
          part,
          (current) => current.settings[key],
        );
      }
      if (isPlatformError(error) && error.fieldErrors) {
        const fieldErrors = Object.fromEntries(
          Object.entries(error.fieldErrors).map(([path, messages]) => [
            path.replace(/^settings\./, ""),
            messages,
          ]),
        );
        return data<ServiceActionData>(
          { form: key, result: submission.reply({ fieldErrors }) },
          { status: error.status, headers },
        );
      }
      return refused(key, error, {
        result: submission.reply({ formErrors: [isPlatformError(error) ? userMessageOf(error) : ""] }),
      });
    }
    return dataWithToast<ServiceActionData>(
      { form: key, result: submission.reply({ resetForm: true }) },
      { variant: "success", message: "Settings saved" },
      { headers },
    );
  }

  /** The name typed in a plan step's confirmation field; absent until the step asks for it. */
  function typedConfirmation(): string | undefined {
    const typed = formData.get("confirmation");
    return typeof typed === "string" ? typed : undefined;
  }

  /**
   * The platform refused to deploy a change that replaces the service and deletes its data without its name typed:
   * the form's next step shows the change's plan and asks for the name (a form step, so it works without
   * JavaScript), saying what was typed wrong when a name was typed.
   */
  async function planStep(
    form: string,
    result: ServiceActionData["result"],
    change: Parameters<typeof planServiceChange>[4],
    confirmationError: string | undefined,
  ) {
    let plan: Awaited<ReturnType<typeof planServiceChange>>;
    try {
      plan = await planServiceChange(api, tenantId, environment.id, serviceId, change);
    } catch (error) {
      return refused(form, error, { result });
    }
    return dataWithToast<ServiceActionData>(
      { form, result, plan: { plan, ...(confirmationError ? { confirmationError } : {}) } },
      { variant: "warning", message: `${plan.summary}: type its name to confirm` },
      { status: confirmationError ? 400 : 200, headers },
    );
  }

  /**
   * Someone else saved first: the current service is read again and the form is told what differs between what
   * the user submitted and what is saved now, with the version to save on top of. What the user typed stays.
   */
  async function staleReply(
    form: string,
    result: ServiceActionData["result"],
    yours: unknown,
    theirsOf: (current: Resource) => unknown,
  ) {
    const current = await getService(api, tenantId, environment.id, serviceId).catch((error: unknown) =>
      throwRouteError(error, errorCodes.resourceListFetch, headers),
    );
    return dataWithToast<ServiceActionData>(
      { form, result, conflict: conflictOf(yours, theirsOf(current), current.version) },
      {
        variant: "warning",
        message: "Someone else changed this service. Review their changes and save again.",
      },
      { status: 409, headers },
    );
  }
}

/** What the configuration form edits: the waiting draft's configuration when there is one. */
export function editedConfig(service: Pick<Resource, "config" | "draft">): Record<string, unknown> {
  return service.draft?.config ?? service.config;
}

/** Mantine's Tabs names its tabs `${id}-tab-${value}`: the panel is labelled by the shown one. */
const SERVICE_TABS_ID = "service-tabs";

export default function ServiceDetailsPage() {
  const loaded = useLoaderData<typeof loader>();
  const { service, environmentName, view } = loaded;
  const actionData = useActionData<ServiceActionData>();
  // Revalidation keeps forms as they are (they follow a new version only while clean), so polling may run
  // while someone edits.
  useRevalidateWhileBusy(isBusyStage(service.stage));
  const tabPath = (tab: (typeof serviceDetailTabs)[number]) =>
    servicePagePaths.details(environmentName, service.id, { tab });

  return (
    <Stack gap="md">
      <ServiceHeader
        environmentName={environmentName}
        service={service}
        actionData={actionData}
        ticketManagers={loaded.ticketManagers}
        deletion={loaded.deletion}
        now={loaded.now}
      />
      {/*
        The tabs are links, and only the shown tab's panel is rendered: it sits outside Mantine's Tabs, whose context
        changes as it hydrates (its id is set in a layout effect). Inside, that update would reach the lazily loaded
        panels before they finished hydrating: React error #421, and the panel rendered again.
      */}
      <Tabs id={SERVICE_TABS_ID} value={view.tab} keepMounted={false}>
        <Tabs.List aria-label="Service sections">
          {serviceDetailTabs.map((tab) => (
            <Tabs.Tab
              key={tab}
              value={tab}
              renderRoot={(props) => <Link {...props} to={tabPath(tab)} preventScrollReset />}
            >
              {serviceTabLabels[tab]}
            </Tabs.Tab>
          ))}
        </Tabs.List>
      </Tabs>
      <Box
        role="tabpanel"
        id={`${SERVICE_TABS_ID}-panel-${view.tab}`}
        aria-labelledby={`${SERVICE_TABS_ID}-tab-${view.tab}`}
      >
        {view.tab === "overview" && loaded.units ? (
          <OverviewPanel service={service} units={loaded.units} />
        ) : null}
        {view.tab === "config" && service.serviceType !== "application" ? (
          <ConfigPanel service={service} actionData={actionData} />
        ) : null}
        {view.tab === "config" && loaded.applicationEditing ? (
          <ApplicationConfigTab
            environmentName={environmentName}
            service={service}
            editing={loaded.applicationEditing}
            deployOnPush={loaded.deployOnPush}
            actionData={actionData}
          />
        ) : null}
        {view.tab === "pre-deploy" ? <PreDeployPanel service={service} actionData={actionData} /> : null}
        {view.tab === "monitoring" && loaded.telemetry ? (
          <MonitoringPanel
            environmentName={environmentName}
            serviceId={service.id}
            range={view.range}
            telemetry={loaded.telemetry}
            dashboards={loaded.dashboards}
          />
        ) : null}
        {view.tab === "monitor" && loaded.telemetry ? <MonitorPanel telemetry={loaded.telemetry} /> : null}
        {view.tab === "logs" && loaded.logs ? (
          <LogsPanel environmentName={environmentName} service={service} view={view} logs={loaded.logs} />
        ) : null}
        {view.tab === "history" ? <HistoryPanel environmentName={environmentName} service={service} /> : null}
        {view.tab === "history" && loaded.snapshots ? <FinalSnapshots snapshots={loaded.snapshots} /> : null}
        {view.tab === "settings" ? (
          <SettingsPanel
            environmentName={environmentName}
            service={service}
            subTab={view.subTab}
            actionData={actionData}
          />
        ) : null}
        {view.tab === "cost" && loaded.cost ? <CostPanel service={service} cost={loaded.cost} /> : null}
        {view.tab === "attributes" ? (
          <AttributesPanel environmentName={environmentName} service={service} />
        ) : null}
      </Box>
    </Stack>
  );
}

export function ErrorBoundary() {
  return <ErrorPage />;
}
