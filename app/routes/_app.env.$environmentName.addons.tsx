import { getCollectionProps, getFormProps, useForm } from "@conform-to/react";
import { getZodConstraint } from "@conform-to/zod/v4";
import { parseWithZod } from "@conform-to/zod/v4";
import { parseSubmission } from "~/components/parse-submission.server";
import { Group, Paper, Stack, Switch } from "@mantine/core";
import {
  data,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
  type LinksFunction,
} from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import type { Addon } from "#contract/environments";
import { errorCodes } from "#contract/errors";
import { Button } from "~/components/button";
import { FormErrors } from "~/components/forms";
import { UnsavedChangesDialog } from "~/components/unsaved-changes-dialog";
import { addonDescriptions, addonsFormSchema, addonsWithEnabled } from "~/features/environments/addons";
import { CostEstimatePanel, useCostEstimate } from "~/features/environments/cost-estimate-panel";
import type { CostChoice, CostEstimateResult } from "~/features/environments/cost-estimate";
import { loadCostEstimate } from "~/features/environments/cost-estimate.server";
import { environmentPagePaths } from "~/features/environments/paths";
import { requireEnvironment, requireEnvironmentIdentity } from "~/features/workspace/workspace.server";
import { useUnsavedChanges } from "~/hooks/use-unsaved-changes";
import { rejectSubmission } from "~/platform/action-errors.server";
import { listAddons, updateAddons } from "~/platform/environments.server";
import { throwRouteError } from "~/platform/route-errors.server";
import { redirectWithToast } from "~/toast.server";
import { Restricted, RestrictedFields } from "~/components/restricted";
import { useCanInCurrentEnvironment } from "~/features/permissions/permissions";
import { mantineFormsSheet } from "~/styles/mantine-sheets";

export const links: LinksFunction = () => [mantineFormsSheet];

export const meta: MetaFunction = ({ params }) => [
  { title: `Add-ons · ${params.environmentName ?? "Environment"} · Cloud Console` },
];

const enabledNames = (addons: readonly Addon[]) =>
  addons.filter((addon) => addon.enabled).map((addon) => addon.name);

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { api, tenantId, environment, headers } = await requireEnvironmentIdentity(
    request,
    params.environmentName,
    context,
  );
  const addons = await listAddons(api, tenantId, environment.id).catch((error: unknown) =>
    throwRouteError(error, errorCodes.workspaceListFetch, headers),
  );
  const estimate = await loadCostEstimate(api, tenantId, {
    cloudProvider: environment.cloudProvider,
    region: environment.region,
    addons: enabledNames(addons),
  });
  const { cloudProvider, region } = environment;
  return data({ addons, estimate, cloud: { cloudProvider, region } }, { headers });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const { api, tenantId, environment, headers } = await requireEnvironment(request, params.environmentName);
  const submission = parseSubmission(await request.formData(), { schema: addonsFormSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400, headers });
  try {
    const current = await listAddons(api, tenantId, environment.id);
    await updateAddons(api, tenantId, environment.id, addonsWithEnabled(current, submission.value.enabled));
  } catch (error) {
    return rejectSubmission(submission, error, headers);
  }
  throw await redirectWithToast(
    environmentPagePaths.section(environment.name, "addons"),
    { variant: "success", message: "Add-ons saved" },
    { headers },
  );
}

export default function EnvironmentAddonsPage() {
  const { addons, estimate, cloud } = useLoaderData<typeof loader>();
  // Saved add-ons start a fresh form, so what was saved is no longer an unsaved change.
  return (
    <AddonsForm
      key={enabledNames(addons).join(",")}
      addons={addons}
      initialEstimate={estimate}
      cloud={cloud}
    />
  );
}

function AddonsForm({
  addons,
  initialEstimate,
  cloud,
}: {
  addons: Addon[];
  initialEstimate: CostEstimateResult;
  cloud: CostChoice;
}) {
  const lastResult = useActionData<typeof action>();
  const navigation = useNavigation();
  const canConfigure = useCanInCurrentEnvironment("environments.configure");
  const [form, fields] = useForm({
    id: "environment-addons",
    lastResult,
    defaultValue: { enabled: enabledNames(addons) },
    constraint: getZodConstraint(addonsFormSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: addonsFormSchema }),
  });
  const unsavedChanges = useUnsavedChanges(form.dirty, { formId: form.id });
  const { result, loading, estimate } = useCostEstimate(initialEstimate);
  const switches = getCollectionProps(fields.enabled, {
    type: "checkbox",
    options: addons.map((addon) => addon.name),
  });
  return (
    <Stack gap="md" maw={640}>
      <Paper withBorder p="lg">
        <Form
          method="post"
          {...getFormProps(form)}
          onChange={(event) => {
            const enabled = new FormData(event.currentTarget).getAll(fields.enabled.name).map(String);
            estimate({ ...cloud, addons: enabled });
          }}
        >
          <Stack gap="lg">
            <FormErrors errors={form.errors} id={form.errorId} />
            <RestrictedFields allowed={canConfigure}>
              <Stack gap="lg">
                {addons.map((addon, index) => {
                  const { key, ...switchProps } = switches[index] ?? {};
                  const { label, description } = addonDescriptions[addon.name];
                  return (
                    <Switch
                      key={key ?? addon.name}
                      {...switchProps}
                      label={label}
                      description={description}
                    />
                  );
                })}
              </Stack>
            </RestrictedFields>
            <Group justify="flex-end">
              <Button
                variant="secondary"
                disabled={!form.dirty}
                onClick={() => {
                  form.reset();
                  estimate({ ...cloud, addons: enabledNames(addons) });
                }}
              >
                Undo changes
              </Button>
              <Restricted allowed={canConfigure}>
                <Button type="submit" loading={navigation.state === "submitting"}>
                  Save add-ons
                </Button>
              </Restricted>
            </Group>
          </Stack>
        </Form>
      </Paper>
      <CostEstimatePanel
        result={result}
        loading={loading}
        title="Estimated monthly cost with these add-ons"
      />
      <UnsavedChangesDialog blocker={unsavedChanges} />
    </Stack>
  );
}
