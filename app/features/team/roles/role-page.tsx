import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint } from "@conform-to/zod/v4";
import { parseWithZod } from "@conform-to/zod/v4";
import { Anchor, Group, Paper, Stack, Title } from "@mantine/core";
import { Form, Link, useNavigation } from "@remix-run/react";
import { Button } from "~/components/button";
import { FormErrors } from "~/components/forms";
import { teamPagePaths } from "../paths";
import { roleFormSchema } from "./role-form";
import { RoleFormFields } from "./role-form-fields";

/** The page of the create and edit forms of a custom role: the same fields, checked before they are sent. */
export function RolePage({
  title,
  submitLabel,
  lastResult,
  defaultValue,
}: {
  title: string;
  submitLabel: string;
  lastResult: SubmissionResult<string[]> | undefined;
  defaultValue?: { name: string; description: string; permissions: string[] };
}) {
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: "role-form",
    lastResult: navigation.state === "idle" ? lastResult : null,
    defaultValue,
    constraint: getZodConstraint(roleFormSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: roleFormSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  return (
    <Stack gap="md" maw={880}>
      <Anchor component={Link} to={teamPagePaths.roles} size="sm">
        ← Roles
      </Anchor>
      <Title order={2}>{title}</Title>
      <Paper withBorder p="lg">
        <Form method="post" {...getFormProps(form)}>
          <Stack gap="md">
            <FormErrors errors={form.errors} id={form.errorId} />
            <RoleFormFields fields={fields} />
            <Group justify="flex-end" gap="sm">
              <Button component={Link} to={teamPagePaths.roles} variant="secondary">
                Cancel
              </Button>
              <Button type="submit" loading={navigation.state === "submitting"}>
                {submitLabel}
              </Button>
            </Group>
          </Stack>
        </Form>
      </Paper>
    </Stack>
  );
}
