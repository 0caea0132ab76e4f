import { FormProvider, getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { parseSubmission } from "~/components/parse-submission.server";
import { Anchor, Breadcrumbs, Group, Paper, Stack, Text, Title } from "@mantine/core";
import {
  data,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
  type LinksFunction,
} from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { defaultApplicationConfig } from "#contract/application-config";
import { Button } from "~/components/button";
import { FormErrors, TextField } from "~/components/forms";
import { UnsavedChangesDialog } from "~/components/unsaved-changes-dialog";
import { RuntimeFields } from "~/features/applications/config-fields";
import {
  applicationFormFieldsSchema,
  applicationFormSchemaOf,
  createApplicationRequestOf,
  type ApplicationForm,
} from "~/features/applications/create-form";
import { loadCreateApplication } from "~/features/applications/create.server";
import { SourceFields } from "~/features/applications/source-fields";
import { CostEstimatePanel } from "~/features/environments/cost-estimate-panel";
import { useFeatureFlag } from "~/features/feature-flags/use-feature-flags";
import { rejectCreate } from "~/features/services/create/create-action.server";
import { useServiceCostEstimate } from "~/features/services/create/use-service-cost-estimate";
import { servicePagePaths } from "~/features/services/paths";
import { requireEnvironment } from "~/features/workspace/workspace.server";
import { useUnsavedChanges } from "~/hooks/use-unsaved-changes";
import { createService } from "~/platform/services.server";
import { redirectWithToast } from "~/toast.server";
import { mantineFormsSheet } from "~/styles/mantine-sheets";

export const links: LinksFunction = () => [mantineFormsSheet];

export const meta: MetaFunction = ({ params }) => [
  { title: `Create application · ${params.environmentName ?? "Environment"} · Cloud Console` },
];

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  return loadCreateApplication(request, params.environmentName, context);
}

export async function action({ request, params }: ActionFunctionArgs) {
  const { api, tenantId, environment, headers } = await requireEnvironment(request, params.environmentName);
  // The contract's whole schema here, the Helm values' YAML check included (the browser loads it lazily).
  const { createApplicationFormSchema } = await import("#contract/applications");
  const submission = parseSubmission(await request.formData(), {
    schema: applicationFormSchemaOf(createApplicationFormSchema),
    disableAutoCoercion: true,
  });
  if (submission.status !== "success") {
    return data(submission.reply(), { status: submission.status === "error" ? 400 : 200, headers });
  }
  const createRequest = createApplicationRequestOf(submission.value);
  let serviceId: string;
  try {
    serviceId = (await createService(api, tenantId, environment.id, createRequest)).id;
  } catch (error) {
    return rejectCreate(submission, error, headers);
  }
  throw await redirectWithToast(
    servicePagePaths.details(environment.name, serviceId),
    {
      variant: "success",
      message: createRequest.launch ? `Deploying ${createRequest.name}` : "Application saved as a draft",
    },
    { headers },
  );
}

const formSchema = applicationFormSchemaOf(applicationFormFieldsSchema);

export default function CreateApplicationPage() {
  const {
    environmentName,
    estimate: initialEstimate,
    choices,
    serviceNames,
    constraint,
  } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const navigation = useNavigation();
  const sidecarsEnabled = useFeatureFlag("multi-container");
  const [form, fields] = useForm<ApplicationForm>({
    id: "create-application",
    lastResult,
    defaultValue: { name: "", config: defaultApplicationConfig },
    constraint,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: formSchema, disableAutoCoercion: true }),
    // Mantine's own inputs (the segmented controls' radios) are not the form's: they do not make it dirty.
    shouldDirtyConsider: (name) => name === "name" || name === "config",
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  const unsavedChanges = useUnsavedChanges(form.dirty, { formId: form.id });
  const { result: costEstimate, loading: estimating } = useServiceCostEstimate({
    initial: initialEstimate,
    environmentName,
    serviceType: "application",
    formId: form.id,
    formValue: form.value,
  });
  const submittingIntent =
    navigation.state === "submitting" && navigation.formAction?.endsWith("/create")
      ? navigation.formData?.get("intent")
      : null;
  const config = fields.config.getFieldset();

  return (
    <Stack gap="md" maw={960}>
      <Breadcrumbs>
        <Anchor component={Link} to={servicePagePaths.applications(environmentName)}>
          Applications
        </Anchor>
        <Text>Create application</Text>
      </Breadcrumbs>
      <Stack gap={4}>
        <Title order={2}>Create application</Title>
        <Text c="dimmed">
          Deploy a container from a public image, a connected registry, a GitHub repository built for you, or
          a Helm chart.
        </Text>
      </Stack>
      <Paper withBorder p="lg">
        <FormProvider context={form.context}>
          <Form method="post" {...getFormProps(form)}>
            <Stack gap="md">
              <FormErrors errors={form.errors} id={form.errorId} />
              <SourceFields source={config.source} environmentName={environmentName} choices={choices} />
              <TextField
                field={fields.name}
                label="Name"
                description="2 to 40 lowercase letters, digits and hyphens, unique in the environment"
                autoComplete="off"
              />
              <RuntimeFields
                config={fields.config}
                environmentName={environmentName}
                serviceNames={serviceNames}
                sidecarsEnabled={sidecarsEnabled}
              />
              <CostEstimatePanel result={costEstimate} loading={estimating} />
              <Group justify="flex-end">
                <Button
                  component={Link}
                  to={servicePagePaths.applications(environmentName)}
                  variant="ghostSecondary"
                >
                  Cancel
                </Button>
                <Button
                  type="submit"
                  name="intent"
                  value="save"
                  variant="secondary"
                  loading={submittingIntent === "save"}
                  disabled={Boolean(submittingIntent)}
                >
                  Save as draft
                </Button>
                <Button
                  type="submit"
                  name="intent"
                  value="deploy"
                  loading={submittingIntent === "deploy"}
                  disabled={Boolean(submittingIntent)}
                >
                  Deploy
                </Button>
              </Group>
            </Stack>
          </Form>
        </FormProvider>
      </Paper>
      <UnsavedChangesDialog blocker={unsavedChanges} />
    </Stack>
  );
}
