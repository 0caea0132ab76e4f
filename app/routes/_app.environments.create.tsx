import { getFormProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { Button, Group, Paper, Stack, Text, Title } from "@mantine/core";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useNavigation } from "@remix-run/react";
import { createEnvironmentRequestSchema } from "#contract/environments";
import { FormErrors, TextField } from "~/components/forms";
import { UnsavedChangesDialog } from "~/components/unsaved-changes-dialog";
import { useUnsavedChanges } from "~/hooks/use-unsaved-changes";
import { createEnvironment } from "~/platform/environments.server";
import { rejectSubmission } from "~/platform/action-errors.server";
import { requireOrganizationClient } from "~/platform/request.server";
import { redirectWithToast } from "~/toast.server";

export const meta: MetaFunction = () => [{ title: "Create environment · Cloud Console" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const { headers } = await requireOrganizationClient(request);
  return data(null, { headers });
}

export async function action({ request }: ActionFunctionArgs) {
  const { api, tenantId, headers } = await requireOrganizationClient(request);
  const submission = parseWithZod(await request.formData(), { schema: createEnvironmentRequestSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400, headers });
  try {
    await createEnvironment(api, tenantId, submission.value);
  } catch (error) {
    return rejectSubmission(submission, error, headers);
  }
  throw await redirectWithToast(
    "/environments",
    { variant: "success", message: `Environment ${submission.value.name} created` },
    { headers },
  );
}

export default function CreateEnvironment() {
  const lastResult = useActionData<typeof action>();
  const navigation = useNavigation();
  const [form, fields] = useForm({
    lastResult,
    constraint: getZodConstraint(createEnvironmentRequestSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: createEnvironmentRequestSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  const unsavedChanges = useUnsavedChanges(form.dirty, { formId: form.id });
  return (
    <Stack gap="md" maw={560}>
      <Title order={2}>Create environment</Title>
      <Text c="dimmed">
        An environment holds the services of one stage of your delivery, such as production or staging.
      </Text>
      <Paper withBorder p="lg">
        <Form method="post" {...getFormProps(form)}>
          <Stack gap="md">
            <FormErrors errors={form.errors} id={form.errorId} />
            <TextField
              field={fields.name}
              label="Name"
              description="Lowercase letters, digits and hyphens, for example production."
              autoComplete="off"
              data-autofocus
            />
            <Group justify="flex-end">
              <Button component={Link} to="/environments" variant="default">
                Cancel
              </Button>
              <Button type="submit" loading={navigation.state === "submitting"}>
                Create environment
              </Button>
            </Group>
          </Stack>
        </Form>
      </Paper>
      <UnsavedChangesDialog blocker={unsavedChanges} />
    </Stack>
  );
}
