import { parseWithZod } from "@conform-to/zod/v4";
import { Group, Stack, Text } from "@mantine/core";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { errorCodes } from "#contract/errors";
import { Button } from "~/components/button";
import { previewSummary } from "~/features/environments/env-import";
import { applyEnvImport, planEnvImport } from "~/features/environments/env-import.server";
import { ImportEnvFileButton } from "~/features/environments/import-env-file-dialog";
import { mapWithConcurrency } from "~/features/environments/map-with-concurrency";
import { environmentPagePaths } from "~/features/environments/paths";
import { AddVariableButton } from "~/features/environments/variable-form-dialog";
import {
  intentOf,
  variableChangeOf,
  variableFormSchemas,
  type VariablesActionData,
} from "~/features/environments/variable-forms";
import { VariablesTable } from "~/features/environments/variables-table";
import { requireEnvironment } from "~/features/workspace/workspace.server";
import { rejectSubmission } from "~/platform/action-errors.server";
import {
  createVariables,
  deleteVariables,
  listReferencedServices,
  listVariables,
  updateVariables,
} from "~/platform/environments.server";
import { throwRouteError } from "~/platform/route-errors.server";
import { dataWithToast } from "~/toast.server";

export const meta: MetaFunction = ({ params }) => [
  { title: `Variables · ${params.environmentName ?? "Environment"} · Cloud Console` },
];

const REFERENCED_SERVICES_CONCURRENCY = 8;

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { api, tenantId, environment, headers } = await requireEnvironment(
    request,
    params.environmentName,
    context,
  );
  const variables = await listVariables(api, tenantId, environment.id)
    .then((listed) =>
      mapWithConcurrency(listed, REFERENCED_SERVICES_CONCURRENCY, async (variable) => ({
        ...variable,
        referencedBy: await listReferencedServices(api, tenantId, environment.id, variable.name),
      })),
    )
    .catch((error: unknown) => throwRouteError(error, errorCodes.workspaceListFetch, headers));
  return data({ environmentName: environment.name, variables }, { headers });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const { api, tenantId, environment, headers } = await requireEnvironment(request, params.environmentName);
  const formData = await request.formData();
  const intent = intentOf(formData);
  if (!intent) throw data({ message: "Unknown form" }, { status: 400, headers });
  const submission = parseWithZod(formData, { schema: variableFormSchemas[intent] });
  if (submission.status !== "success") {
    return data<VariablesActionData>(submission.reply(), { status: 400, headers });
  }
  // The form's dialog closes on a success, so the reply keeps no values to reset.
  const done = (message: string) =>
    dataWithToast<VariablesActionData>(submission.reply(), { variant: "success", message }, { headers });

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
        const preview = { ...previewSummary(plan.preview), rejected: plan.rejected };
        if (plan.problem) {
          return data<VariablesActionData>(
            { ...submission.reply({ formErrors: [plan.problem] }), preview },
            { status: 400, headers },
          );
        }
        if (value.intent === "preview-import") {
          return data<VariablesActionData>({ ...submission.reply(), preview }, { headers });
        }
        await applyEnvImport(api, tenantId, environment.id, plan.preview, { secret: value.secret });
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
  const { environmentName, variables } = useLoaderData<typeof loader>();
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
          <ImportEnvFileButton />
          <AddVariableButton />
        </Group>
      </Group>
      <VariablesTable environmentName={environmentName} variables={variables} />
    </Stack>
  );
}
