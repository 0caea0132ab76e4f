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
  const config = await getEnvironmentConfig(api, tenantId, environment.id).catch((error: unknown) =>
    throwRouteError(error, errorCodes.workspaceListFetch, headers),
  );
  return data({ config }, { headers });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const { api, tenantId, environment, headers } = await requireEnvironment(request, params.environmentName);
  const submission = parseSubmission(await request.formData(), { schema: configFormSchema });
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
  const { config } = useLoaderData<typeof loader>();
  // A saved configuration starts a fresh form, so what was saved is no longer an unsaved change.
  return <ConfigForm key={JSON.stringify(config)} config={config} />;
}

function ConfigForm({ config }: { config: EnvironmentConfig }) {
  const lastResult = useActionData<typeof action>();
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
