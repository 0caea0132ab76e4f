import { getFormProps, useForm } from "@conform-to/react";
import { getZodConstraint } from "@conform-to/zod/v4";
import { parseWithZod } from "@conform-to/zod/v4";
import { parseSubmission } from "~/components/parse-submission.server";
import { Group, Paper, Stack, Text, Title } from "@mantine/core";
import {
  data,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
  type LinksFunction,
} from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import type { EnvironmentConfig } from "#contract/environments";
import { errorCodes } from "#contract/errors";
import { Button } from "~/components/button";
import { FormErrors, NumberField, SelectField, SwitchField, TextareaField } from "~/components/forms";
import { UnsavedChangesDialog } from "~/components/unsaved-changes-dialog";
import { configFormSchema, maintenanceDayOptions } from "~/features/environments/config-form";
import { environmentPagePaths } from "~/features/environments/paths";
import { Restricted, RestrictedFields } from "~/components/restricted";
import { useCanInCurrentEnvironment } from "~/features/permissions/permissions";
import { requireEnvironment, requireEnvironmentIdentity } from "~/features/workspace/workspace.server";
import { useUnsavedChanges } from "~/hooks/use-unsaved-changes";
import { rejectSubmission } from "~/platform/action-errors.server";
import { getEnvironmentConfig, updateEnvironmentConfig } from "~/platform/environments.server";
import { listConnections } from "~/platform/connections.server";
import { getPreviewSettings, updatePreviewSettings } from "~/platform/previews.server";
import { listServices } from "~/platform/services.server";
import {
  PREVIEW_SETTINGS_INTENT,
  PreviewSettingsForm,
  previewSettingsFormSchema,
} from "~/features/environments/preview-settings-form";
import { throwRouteError } from "~/platform/route-errors.server";
import { redirectWithToast } from "~/toast.server";
import { mantineFormsSheet } from "~/styles/mantine-sheets";

export const links: LinksFunction = () => [mantineFormsSheet];

export const meta: MetaFunction = ({ params }) => [
  { title: `Configuration · ${params.environmentName ?? "Environment"} · Cloud Console` },
];

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { api, tenantId, environment, headers } = await requireEnvironmentIdentity(
    request,
    params.environmentName,
    context,
  );
  const [config, previewSettings, githubConnections, applications] = await Promise.all([
    getEnvironmentConfig(api, tenantId, environment.id),
    getPreviewSettings(api, tenantId, environment.id),
    listConnections(api, tenantId, { kind: "VERSION_CONTROL_TYPE_GITHUB" }),
    listServices(api, tenantId, environment.id, { serviceType: "application", pageSize: 200 }),
  ]).catch((error: unknown) => throwRouteError(error, errorCodes.workspaceListFetch, headers));
  return data(
    {
      config,
      previewSettings,
      // Only what the form shows goes to the browser.
      githubConnections: githubConnections.map(({ id, name }) => ({ id, name })),
      applications: applications.infrastructure.map(({ id, name }) => ({ id, name })),
    },
    { headers },
  );
}

export async function action({ request, params }: ActionFunctionArgs) {
  const { api, tenantId, environment, headers } = await requireEnvironment(request, params.environmentName);
  const formData = await request.formData();
  if (formData.get("intent") === PREVIEW_SETTINGS_INTENT) {
    const previews = parseSubmission(formData, { schema: previewSettingsFormSchema });
    if (previews.status !== "success") {
      return data({ previewSettings: { result: previews.reply(), secret: null } }, { status: 400, headers });
    }
    try {
      const { secret } = await updatePreviewSettings(api, tenantId, environment.id, previews.value);
      // The webhook's secret is shown this once, on the page the save answers (never in a redirect's cookie).
      if (secret) return data({ previewSettings: { result: previews.reply(), secret } }, { headers });
    } catch (error) {
      const rejected = await rejectSubmission(previews, error, headers);
      return data(
        { previewSettings: { result: rejected.data, secret: null } },
        { status: rejected.init?.status, headers: rejected.init?.headers },
      );
    }
    throw await redirectWithToast(
      environmentPagePaths.section(environment.name, "config"),
      { variant: "success", message: "Preview setting saved" },
      { headers },
    );
  }
  const submission = parseSubmission(formData, { schema: configFormSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400, headers });
  try {
    await updateEnvironmentConfig(api, tenantId, environment.id, submission.value);
  } catch (error) {
    return rejectSubmission(submission, error, headers);
  }
  throw await redirectWithToast(
    environmentPagePaths.section(environment.name, "config"),
    { variant: "success", message: "Configuration saved" },
    { headers },
  );
}

export default function EnvironmentConfigPage() {
  const { config, previewSettings, githubConnections, applications } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const canConfigure = useCanInCurrentEnvironment("environments.configure");
  const previews = actionData && "previewSettings" in actionData ? actionData.previewSettings : undefined;
  return (
    <Stack gap="lg">
      {/* A saved configuration starts a fresh form, so what was saved is no longer an unsaved change. */}
      <ConfigForm key={JSON.stringify(config)} config={config} />
      <PreviewSettingsForm
        key={JSON.stringify(previewSettings)}
        settings={previewSettings}
        connections={githubConnections}
        applications={applications}
        canConfigure={canConfigure}
        lastResult={previews?.result}
        secret={previews?.secret ?? undefined}
        submitting={
          navigation.state === "submitting" && navigation.formData?.get("intent") === PREVIEW_SETTINGS_INTENT
        }
      />
    </Stack>
  );
}

function ConfigForm({ config }: { config: EnvironmentConfig }) {
  const actionData = useActionData<typeof action>();
  const lastResult = actionData && !("previewSettings" in actionData) ? actionData : undefined;
  const navigation = useNavigation();
  const canConfigure = useCanInCurrentEnvironment("environments.configure");
  const [form, fields] = useForm({
    id: "environment-config",
    lastResult,
    defaultValue: config,
    constraint: getZodConstraint(configFormSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: configFormSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  const maintenanceWindow = fields.maintenanceWindow.getFieldset();
  const unsavedChanges = useUnsavedChanges(form.dirty, { formId: form.id });
  return (
    <Paper withBorder p="lg" maw={640}>
      <Form method="post" {...getFormProps(form)}>
        <Stack gap="md">
          <FormErrors errors={form.errors} id={form.errorId} />
          <RestrictedFields allowed={canConfigure}>
            <TextareaField
              field={fields.description}
              label="Description"
              description="What the environment is for."
              autosize
              minRows={2}
            />
            <SwitchField
              field={fields.autoDeploy}
              label="Deploy automatically"
              description="Deploy services as soon as their source changes."
            />
            <SwitchField
              field={fields.deletionProtection}
              label="Deletion protection"
              description="The environment cannot be deleted while this is on."
            />
            <Stack gap={4}>
              <Title order={4}>Maintenance window</Title>
              <Text size="sm" c="dimmed">
                The weekly hour in which the platform may apply updates.
              </Text>
            </Stack>
            <Group grow align="flex-start">
              <SelectField
                field={maintenanceWindow.day}
                label="Maintenance day"
                data={maintenanceDayOptions}
                allowDeselect={false}
              />
              <NumberField
                field={maintenanceWindow.hour}
                label="Maintenance hour (UTC)"
                min={0}
                max={23}
                clampBehavior="none"
              />
            </Group>
          </RestrictedFields>
          <Group justify="flex-end">
            <Button variant="secondary" disabled={!form.dirty} onClick={() => form.reset()}>
              Undo changes
            </Button>
            <Restricted allowed={canConfigure}>
              <Button type="submit" loading={navigation.state === "submitting"}>
                Save configuration
              </Button>
            </Restricted>
          </Group>
        </Stack>
      </Form>
      <UnsavedChangesDialog blocker={unsavedChanges} />
    </Paper>
  );
}
