import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { getZodConstraint } from "@conform-to/zod/v4";
import { parseWithZod } from "@conform-to/zod/v4";
import { parseSubmission } from "~/components/parse-submission.server";
import { Anchor, Button, Group, Paper, Stack, Text, Title } from "@mantine/core";
import {
  data,
  redirect,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
  type LinksFunction,
} from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import type { Environment } from "#contract/environments";
import { errorCodes } from "#contract/errors";
import { FormErrors, SelectField, TextField } from "~/components/forms";
import { UnsavedChangesDialog } from "~/components/unsaved-changes-dialog";
import {
  availableCloudProviders,
  cloudProviderLabels,
  defaultRegion,
  regionOptions,
} from "~/features/environments/cloud-regions";
import { cloudAccountChoices, defaultCloudAccountOf } from "~/features/connections/connection-links.server";
import { placementOf } from "~/features/fastboot/placement";
import { CostEstimatePanel, useCostEstimate } from "~/features/environments/cost-estimate-panel";
import { settingsPaths } from "~/features/settings/paths";
import { loadCostEstimate } from "~/features/environments/cost-estimate.server";
import { environmentFormSchema, parseCloudProvider } from "~/features/environments/environment-form";
import { environmentPagePaths } from "~/features/environments/paths";
import { accountFieldOf } from "~/features/environments/target";
import { onboardingReturnTo } from "~/features/onboarding/mirror";
import { fastbootPagePaths } from "~/features/fastboot/paths";
import { defaultFeatureFlags, isFeatureEnabled } from "~/features/feature-flags/flag-values";
import { getFeatureFlags } from "~/features/feature-flags/flags.server";
import { requirePermission } from "~/features/permissions/permissions.server";
import { useUnsavedChanges } from "~/hooks/use-unsaved-changes";
import { rejectSubmission } from "~/platform/action-errors.server";
import type { PlatformClient } from "~/platform/client.server";
import { listConnections } from "~/platform/connections.server";
import { cloneEnvironment, createEnvironment, listEnvironments } from "~/platform/environments.server";
import { requireOrganizationClient } from "~/platform/request.server";
import { throwRouteError } from "~/platform/route-errors.server";
import { redirectWithToast } from "~/toast.server";
import { mantineFormsSheet } from "~/styles/mantine-sheets";

export const links: LinksFunction = () => [mantineFormsSheet];

export const meta: MetaFunction<typeof loader> = ({ data: loaded }) => [
  { title: `${loaded?.source ? "Clone environment" : "Create environment"} · Cloud Console` },
];

async function featureFlagsOf(api: PlatformClient, tenantId: string) {
  // Without the flags the catalogue's defaults apply: no Azure, cloning offered.
  return getFeatureFlags(api, { tenantId }).catch(() => defaultFeatureFlags());
}

/** The environment `?workspaceId={id}&mode=clone` asks to clone, or null for a plain create. */
function cloneSourceIdOf(request: Request): string | null {
  const query = new URL(request.url).searchParams;
  return query.get("mode") === "clone" ? query.get("workspaceId") || null : null;
}

export async function loader({ request }: LoaderFunctionArgs) {
  const client = await requireOrganizationClient(request);
  const { api, tenantId, headers } = client;
  const [flags, cloudConnections] = await Promise.all([
    featureFlagsOf(api, tenantId),
    listConnections(api, tenantId, { category: "cloud-provider" }).catch((error: unknown) =>
      throwRouteError(error, errorCodes.workspaceListFetch, headers),
    ),
    requirePermission(request, client, "environments.create"),
  ]);
  const sourceId = cloneSourceIdOf(request);
  let source: Environment | null = null;
  if (sourceId) {
    if (isFeatureEnabled(flags, "cloning-hidden")) throw redirect(environmentPagePaths.create, { headers });
    const environments = await listEnvironments(api, tenantId).catch((error: unknown) =>
      throwRouteError(error, errorCodes.workspaceListFetch, headers),
    );
    source = environments.find((environment) => environment.id === sourceId) ?? null;
    if (!source) throw redirect("/404", { headers });
  }
  const providers = availableCloudProviders({ azureEnabled: isFeatureEnabled(flags, "azure-connection") });
  // A clone starts where its source runs, when that provider is still offered.
  const keepsSourceCloud = source !== null && providers.includes(source.cloudProvider);
  const cloudAccounts = cloudAccountChoices(cloudConnections);
  // A new environment is offered a verified container host ("This machine") first: it deploys for real.
  const placement =
    source && keepsSourceCloud
      ? {
          cloudProvider: source.cloudProvider,
          region: source.region,
          cloudConnectionId: source.cloudConnectionId,
        }
      : placementOf(
          cloudAccounts,
          source ? { cloudConnectionId: "" } : {},
          defaultCloudAccountOf(cloudConnections),
        );
  const { cloudProvider, region } = placement;
  return data(
    {
      source: source && { id: source.id, name: source.name },
      providers,
      defaults: { cloudProvider, region, cloudConnectionId: placement.cloudConnectionId || undefined },
      cloudAccounts,
      estimate: await loadCostEstimate(api, tenantId, { cloudProvider, region, addons: [] }),
    },
    { headers },
  );
}

export async function action({ request }: ActionFunctionArgs) {
  const { api, tenantId, headers, session, saveSession } = await requireOrganizationClient(request);
  const submission = parseSubmission(await request.formData(), { schema: environmentFormSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400, headers });
  const { sourceEnvironmentId, ...environment } = submission.value;
  // The platform refuses Azure without its flag and a region outside the catalogue, as field errors.
  let created: Environment;
  try {
    created = sourceEnvironmentId
      ? await cloneEnvironment(api, tenantId, sourceEnvironmentId, environment)
      : await createEnvironment(api, tenantId, environment);
  } catch (error) {
    return rejectSubmission(submission, error, headers);
  }
  if (created.clonedFrom) {
    throw await redirectWithToast(
      environmentPagePaths.section(created.name, "clone"),
      { variant: "success", message: `Cloning ${created.clonedFrom.name} into ${created.name}` },
      { headers },
    );
  }
  // The new environment opens, which also selects it in the switcher; from an onboarding step, the next step
  // opens instead, with the new environment selected (that step links into it).
  const returnTo = onboardingReturnTo(new URL(request.url).searchParams.get("returnTo"));
  if (returnTo) {
    session.set("environment", { tenantId, name: created.name });
    await saveSession();
  }
  throw await redirectWithToast(
    returnTo ?? environmentPagePaths.section(created.name),
    { variant: "success", message: `Environment ${created.name} created` },
    { headers },
  );
}

export default function CreateEnvironment() {
  const {
    source,
    providers,
    defaults,
    cloudAccounts,
    estimate: initialEstimate,
  } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const navigation = useNavigation();
  const [form, fields] = useForm({
    lastResult,
    defaultValue: { ...defaults, sourceEnvironmentId: source?.id },
    constraint: getZodConstraint(environmentFormSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: environmentFormSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  const unsavedChanges = useUnsavedChanges(form.dirty, { formId: form.id });
  const { result: costEstimate, loading: estimating, estimate } = useCostEstimate(initialEstimate);
  const cloudProvider = parseCloudProvider(fields.cloudProvider.value) ?? defaults.cloudProvider;
  const accountField = accountFieldOf(cloudProvider);
  const title = source ? `Clone ${source.name}` : "Create environment";
  const submitLabel = source ? "Clone environment" : "Create environment";

  return (
    <Stack gap="md" maw={560}>
      <Title order={2}>{title}</Title>
      <Text c="dimmed">
        {source
          ? `The new environment gets copies of ${source.name}'s resources as drafts and its variables. You launch the resources when they are ready.`
          : "An environment holds the services of one stage of your delivery, such as production or staging."}
      </Text>
      {source ? null : (
        <Text size="sm">
          Or start from a ready-made stack with its services launched for you:{" "}
          <Anchor component={Link} to={fastbootPagePaths.configure}>
            Fastboot an environment
          </Anchor>
        </Text>
      )}
      <Paper withBorder p="lg">
        <Form method="post" {...getFormProps(form)}>
          <Stack gap="md">
            <FormErrors errors={form.errors} id={form.errorId} />
            {source ? <input {...getInputProps(fields.sourceEnvironmentId, { type: "hidden" })} /> : null}
            <TextField
              field={fields.name}
              label="Name"
              description="Lowercase letters, digits and hyphens, for example production."
              autoComplete="off"
              data-autofocus
            />
            <SelectField
              field={fields.cloudProvider}
              label="Cloud provider"
              data={providers.map((provider) => ({ value: provider, label: cloudProviderLabels[provider] }))}
              allowDeselect={false}
              onChange={(value) => {
                const provider = parseCloudProvider(value);
                if (!provider) return;
                const region = defaultRegion(provider);
                form.update({ name: fields.region.name, value: region });
                // Another provider's account cannot host the environment.
                form.update({ name: fields.cloudConnectionId.name, value: "" });
                estimate({ cloudProvider: provider, region });
              }}
            />
            <SelectField
              field={fields.region}
              label="Region"
              description="Where the environment's resources run."
              data={regionOptions(cloudProvider)}
              searchable
              allowDeselect={false}
              nothingFoundMessage="No region matches"
              onChange={(region) => {
                if (region) estimate({ cloudProvider, region });
              }}
            />
            <SelectField
              field={fields.cloudConnectionId}
              label={accountField.label}
              description={
                <>
                  {accountField.optional
                    ? "Optional: the connected account the environment runs in."
                    : "The Docker or Podman engine the environment's containers run on."}{" "}
                  <Anchor component={Link} to={settingsPaths.connections} size="xs">
                    Connect {accountField.optional ? "an account" : "a container host"}
                  </Anchor>
                </>
              }
              data={cloudAccounts.filter((account) => account.provider === cloudProvider)}
              placeholder={accountField.placeholder}
              clearable={accountField.optional}
              nothingFoundMessage={accountField.nothingFound}
            />
            <CostEstimatePanel result={costEstimate} loading={estimating} />
            <Group justify="flex-end">
              <Button component={Link} to={environmentPagePaths.list} variant="default">
                Cancel
              </Button>
              <Button type="submit" loading={navigation.state === "submitting"}>
                {submitLabel}
              </Button>
            </Group>
          </Stack>
        </Form>
      </Paper>
      <UnsavedChangesDialog blocker={unsavedChanges} />
    </Stack>
  );
}
