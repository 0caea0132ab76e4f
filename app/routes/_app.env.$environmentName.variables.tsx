import { parseSubmission } from "~/components/parse-submission.server";
import { Group, Paper, Stack, Text, Title } from "@mantine/core";
import {
  data,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
  type LinksFunction,
} from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import type { EnvironmentVariable } from "#contract/environments";
import { errorCodes } from "#contract/errors";
import { Button } from "~/components/button";
import { previewSummary } from "~/features/environments/env-import";
import { applyEnvImport, EnvImportRejected, planEnvImport } from "~/features/environments/env-import.server";
import { DeleteVariableForm } from "~/features/environments/delete-variable-dialog";
import { ImportEnvFileButton, ImportEnvFileForm } from "~/features/environments/import-env-file-dialog";
import { mapWithConcurrency } from "~/features/environments/map-with-concurrency";
import { environmentPagePaths } from "~/features/environments/paths";
import { AddVariableButton, VariableForm } from "~/features/environments/variable-form-dialog";
import {
  intentOf,
  variableChangeOf,
  variableDialogOf,
  variableFormSchemas,
  type VariableDialog,
  type VariablesActionData,
} from "~/features/environments/variable-forms";
import { VariablesTable } from "~/features/environments/variables-table";
import { requireEnvironment, requireEnvironmentIdentity } from "~/features/workspace/workspace.server";
import { rejectSubmission } from "~/platform/action-errors.server";
import {
  createVariables,
  deleteVariables,
  listReferencedServices,
  listVariables,
  revealVariableValue,
  updateVariables,
} from "~/platform/environments.server";
import { throwRouteError } from "~/platform/route-errors.server";
import { dataWithToast, redirectWithToast } from "~/toast.server";
import { RestrictedButton } from "~/components/restricted";
import { useCanInCurrentEnvironment } from "~/features/permissions/permissions";
import { mantineFormsSheet } from "~/styles/mantine-sheets";

export const links: LinksFunction = () => [mantineFormsSheet];

export const meta: MetaFunction = ({ params }) => [
  { title: `Variables · ${params.environmentName ?? "Environment"} · Cloud Console` },
];

const REFERENCED_SERVICES_CONCURRENCY = 8;

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { api, tenantId, environment, headers } = await requireEnvironmentIdentity(
    request,
    params.environmentName,
    context,
  );
  const query = new URL(request.url).searchParams;
  const variables = await listVariables(api, tenantId, environment.id)
    .then((listed) =>
      mapWithConcurrency(listed, REFERENCED_SERVICES_CONCURRENCY, async (variable) => ({
        ...variable,
        referencedBy: await listReferencedServices(api, tenantId, environment.id, variable.name),
      })),
    )
    .catch((error: unknown) => throwRouteError(error, errorCodes.workspaceListFetch, headers));
  // Without JavaScript a secret is revealed by asking for the page with ?reveal={id}: never cached.
  const revealId = query.get("reveal");
  let revealed: { id: string; value: string } | null = null;
  if (revealId && variables.some((variable) => variable.id === revealId && variable.secret)) {
    headers.set("Cache-Control", "no-store");
    const value = await revealVariableValue(api, tenantId, environment.id, revealId).catch((error: unknown) =>
      throwRouteError(error, errorCodes.workspaceListFetch, headers),
    );
    if (value !== null) revealed = { id: revealId, value };
  }
  return data(
    { environmentName: environment.name, variables, dialog: variableDialogOf(query), revealed },
    { headers },
  );
}

export async function action({ request, params }: ActionFunctionArgs) {
  const { api, tenantId, environment, headers } = await requireEnvironment(request, params.environmentName);
  const formData = await request.formData();
  const intent = intentOf(formData);
  if (!intent) throw data({ message: "Unknown form" }, { status: 400, headers });
  const submission = parseSubmission(formData, { schema: variableFormSchemas[intent] });
  if (submission.status !== "success") {
    return data<VariablesActionData>(submission.reply(), { status: 400, headers });
  }
  // The form's dialog closes on a success, so the reply keeps no values to reset. A form the page showed in place
  // of its dialog (?dialog=, without JavaScript) leads back to the page.
  const shownInPage = new URL(request.url).searchParams.has("dialog");
  const done = async (message: string) =>
    shownInPage
      ? redirectWithToast(
          environmentPagePaths.section(environment.name, "variables"),
          {
            variant: "success",
            message,
          },
          { headers },
        )
      : dataWithToast<VariablesActionData>(submission.reply(), { variant: "success", message }, { headers });

  try {
    const value = submission.value;
    switch (value.intent) {
      case "create":
        await createVariables(api, tenantId, environment.id, [
          { name: value.name, value: value.value, secret: value.secret },
        ]);
        return done(`Variable ${value.name} added`);
      case "update":
        await updateVariables(api, tenantId, environment.id, [variableChangeOf(value)]);
        return done(`Variable ${value.name} saved`);
      case "delete":
        await deleteVariables(api, tenantId, environment.id, [value.id]);
        return done(`Variable ${value.name} deleted`);
      case "preview-import":
      case "apply-import": {
        const plan = await planEnvImport(api, tenantId, environment.id, value.content);
        const preview = { ...previewSummary(plan.preview), skipped: plan.skipped };
        if (plan.problem) {
          return data<VariablesActionData>(
            { ...submission.reply({ formErrors: [plan.problem] }), preview },
            { status: 400, headers },
          );
        }
        if (value.intent === "preview-import") {
          return data<VariablesActionData>({ ...submission.reply(), preview }, { headers });
        }
        try {
          await applyEnvImport(api, tenantId, environment.id, plan.preview, { secret: value.secret });
        } catch (error) {
          if (!(error instanceof EnvImportRejected)) throw error;
          return data<VariablesActionData>(
            { ...submission.reply({ formErrors: error.lineErrors }), preview },
            { status: 400, headers },
          );
        }
        return done(importMessage(plan.preview.added.length, plan.preview.changed.length));
      }
    }
  } catch (error) {
    return rejectSubmission(submission, error, headers);
  }
}

function importMessage(added: number, changed: number): string {
  if (added + changed === 0) return "Nothing to import: every variable is unchanged";
  const plural = (count: number) => `${count} variable${count === 1 ? "" : "s"}`;
  return `Imported ${plural(added + changed)}: ${added} new, ${changed} changed`;
}

export default function EnvironmentVariablesPage() {
  const { environmentName, variables, dialog, revealed } = useLoaderData<typeof loader>();
  const canWrite = useCanInCurrentEnvironment("variables.write");
  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Text c="dimmed" size="sm">
          Variables are passed to every service of the environment. Secret values are stored encrypted and
          shown masked.
        </Text>
        <Group gap="sm">
          <Button
            component="a"
            href={environmentPagePaths.sampleEnvFile}
            download
            variant="ghost"
            size="small"
          >
            Download sample .env
          </Button>
          {canWrite ? (
            <>
              <ImportEnvFileButton />
              <AddVariableButton />
            </>
          ) : (
            <>
              <RestrictedButton variant="secondary" size="small">
                Import .env file
              </RestrictedButton>
              <RestrictedButton size="small">Add variable</RestrictedButton>
            </>
          )}
        </Group>
      </Group>
      {dialog && canWrite ? <VariableDialogInPage dialog={dialog} variables={variables} /> : null}
      <VariablesTable
        environmentName={environmentName}
        variables={variables}
        revealed={revealed}
        canWrite={canWrite}
        canReveal={useCanInCurrentEnvironment("secrets.reveal")}
      />
    </Stack>
  );
}

/**
 * A dialog the address names (`?dialog=`), shown in the page as a plain form: how the variables are added,
 * edited, deleted and imported without JavaScript.
 */
function VariableDialogInPage({
  dialog,
  variables,
}: {
  dialog: VariableDialog;
  variables: EnvironmentVariable[];
}) {
  const variable = "variableId" in dialog ? variables.find(({ id }) => id === dialog.variableId) : undefined;
  if ("variableId" in dialog && !variable) return null;
  const title = {
    add: "Add variable",
    import: "Import a .env file",
    edit: `Edit ${variable?.name ?? ""}`,
    delete: "Delete variable",
  }[dialog.kind];
  return (
    <Paper withBorder p="lg" component="section" aria-label={title}>
      <Stack gap="md">
        <Title order={3}>{title}</Title>
        {dialog.kind === "add" ? <VariableForm inline /> : null}
        {dialog.kind === "edit" && variable ? <VariableForm variable={variable} inline /> : null}
        {dialog.kind === "delete" && variable ? <DeleteVariableForm variable={variable} inline /> : null}
        {dialog.kind === "import" ? <ImportEnvFileForm inline /> : null}
      </Stack>
    </Paper>
  );
}
