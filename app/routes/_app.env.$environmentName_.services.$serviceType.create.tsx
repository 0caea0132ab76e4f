import { FormProvider, getFormProps, useForm } from "@conform-to/react";
import { getZodConstraint } from "@conform-to/zod/v4";
import { parseWithZod } from "@conform-to/zod/v4";
import { parseSubmission } from "~/components/parse-submission.server";
import { Alert, Anchor, Breadcrumbs, Group, Paper, Stack, Text, Title } from "@mantine/core";
import {
  data,
  redirect,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
  type LinksFunction,
} from "@remix-run/node";
import {
  Form,
  Link,
  useActionData,
  useLoaderData,
  useNavigation,
  type ShouldRevalidateFunction,
} from "@remix-run/react";
import type * as z from "zod";
import { noContainerFormMessage, serviceTypeLabels } from "#contract/service-catalogue";
import { defaultServiceConfigs } from "#contract/service-configs";
import { Button } from "~/components/button";
import { FormErrors, TextField } from "~/components/forms";
import { UnsavedChangesDialog } from "~/components/unsaved-changes-dialog";
import { CostEstimatePanel } from "~/features/environments/cost-estimate-panel";
import { rejectCreate } from "~/features/services/create/create-action.server";
import {
  type AnyConfig,
  type AnyCreateServiceForm,
  createRequestOf,
  createServiceFormSchema,
  parseCreatableServiceType,
} from "~/features/services/create/create-form";
import { expandListFields } from "~/features/services/create/list-fields";
import { loadServiceCostEstimate } from "~/features/services/create/cost-estimate.server";
import { createPageDescriptions } from "~/features/services/create/descriptions";
import { ServiceConfigFields } from "~/features/services/create/service-config-fields";
import { useServiceCostEstimate } from "~/features/services/create/use-service-cost-estimate";
import { servicePagePaths } from "~/features/services/paths";
import { requirePermission } from "~/features/permissions/permissions.server";
import { requireEnvironment, requireEnvironmentIdentity } from "~/features/workspace/workspace.server";
import { useUnsavedChanges } from "~/hooks/use-unsaved-changes";
import { createService } from "~/platform/services.server";
import { redirectWithToast } from "~/toast.server";
import { mantineFormsSheet } from "~/styles/mantine-sheets";

export const links: LinksFunction = () => [mantineFormsSheet];

export const meta: MetaFunction<typeof loader> = ({ data: loaded, params }) => [
  {
    title: `Create ${loaded ? serviceTypeLabels[loaded.serviceType].toLowerCase() : "service"} · ${
      params.environmentName ?? "Environment"
    } · Cloud Console`,
  },
];

/**
 * The type in the address; one without a create page (an application has its own) goes to the 404 page, as every
 * unknown address does: a thrown 404 would land in the error boundary's "Something went wrong".
 */
function serviceTypeOf(value: string | undefined) {
  const serviceType = parseCreatableServiceType(value);
  if (!serviceType) throw redirect("/404");
  return serviceType;
}

/** An archive upload answers only its own fetcher; the page's data is unchanged by it. */
export const shouldRevalidate: ShouldRevalidateFunction = ({ formAction, defaultShouldRevalidate }) =>
  formAction?.endsWith("/serverless-upload") ? false : defaultShouldRevalidate;

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const client = await requireEnvironmentIdentity(request, params.environmentName, context);
  const { api, tenantId, environment, headers } = client;
  const serviceType = serviceTypeOf(params.serviceType);
  const [estimate] = await Promise.all([
    loadServiceCostEstimate(
      { api, tenantId, environmentId: environment.id },
      serviceType,
      defaultServiceConfigs[serviceType],
    ),
    requirePermission(request, client, "services.configure", { environmentId: environment.id }),
  ]);
  // A container host runs only what has a container form: said here, before any field is filled (issue 26).
  const unavailable = environment.cloudProvider === "CONTAINERS" ? noContainerFormMessage(serviceType) : null;
  return data({ environmentName: environment.name, serviceType, estimate, unavailable }, { headers });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const { api, tenantId, environment, headers } = await requireEnvironment(request, params.environmentName);
  const serviceType = serviceTypeOf(params.serviceType);
  const submission = parseSubmission(expandListFields(await request.formData()), {
    schema: createServiceFormSchema(serviceType),
  });
  if (submission.status !== "success") {
    return data(submission.reply(), { status: submission.status === "error" ? 400 : 200, headers });
  }
  const createRequest = createRequestOf(serviceType, submission.value);
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
      message: createRequest.launch ? `Creating ${createRequest.name}` : "Service saved as a draft",
    },
    { headers },
  );
}

export default function CreateServicePage() {
  const {
    environmentName,
    serviceType,
    estimate: initialEstimate,
    unavailable,
  } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const navigation = useNavigation();
  // The type is known only at run time here; its fields component knows its config's shape.
  const schema = createServiceFormSchema(serviceType) as unknown as z.ZodType<AnyCreateServiceForm>;
  const [form, fields] = useForm<AnyCreateServiceForm>({
    id: `create-${serviceType}`,
    lastResult,
    defaultValue: { name: "", config: defaultServiceConfigs[serviceType] as AnyConfig },
    constraint: getZodConstraint(schema),
    onValidate: ({ formData }) => parseWithZod(expandListFields(formData), { schema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  const unsavedChanges = useUnsavedChanges(form.dirty, { formId: form.id });
  const { result: costEstimate, loading: estimating } = useServiceCostEstimate({
    initial: initialEstimate,
    environmentName,
    serviceType,
    formId: form.id,
    formValue: form.value,
  });
  const submittingIntent =
    navigation.state === "submitting" && navigation.formAction?.endsWith("/create")
      ? navigation.formData?.get("intent")
      : null;
  const label = serviceTypeLabels[serviceType];

  return (
    <Stack gap="md" maw={760}>
      <Breadcrumbs>
        <Anchor component={Link} to={servicePagePaths.list(environmentName)}>
          Services
        </Anchor>
        <Text>Create {label.toLowerCase()}</Text>
      </Breadcrumbs>
      <Stack gap={4}>
        <Title order={2}>Create {label.toLowerCase()}</Title>
        <Text c="dimmed">{createPageDescriptions[serviceType]}</Text>
      </Stack>
      {unavailable ? (
        <Alert color="yellow" title="Not on this environment's target" data-testid="no-container-form">
          {unavailable}
        </Alert>
      ) : null}
      <Paper withBorder p="lg">
        <FormProvider context={form.context}>
          <Form method="post" {...getFormProps(form)}>
            <Stack gap="md">
              <FormErrors errors={form.errors} id={form.errorId} />
              <TextField
                field={fields.name}
                label="Name"
                description="2 to 40 lowercase letters, digits and hyphens, unique in the environment"
                autoComplete="off"
                data-autofocus
              />
              <ServiceConfigFields
                serviceType={serviceType}
                config={fields.config}
                environmentName={environmentName}
              />
              <CostEstimatePanel result={costEstimate} loading={estimating} />
              <Group justify="flex-end">
                <Button component={Link} to={servicePagePaths.list(environmentName)} variant="ghostSecondary">
                  Cancel
                </Button>
                <Button
                  type="submit"
                  name="intent"
                  value="save"
                  variant="secondary"
                  loading={submittingIntent === "save"}
                  disabled={Boolean(submittingIntent) || Boolean(unavailable)}
                >
                  Save
                </Button>
                <Button
                  type="submit"
                  name="intent"
                  value="create"
                  loading={submittingIntent === "create"}
                  disabled={Boolean(submittingIntent) || Boolean(unavailable)}
                >
                  Create
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
