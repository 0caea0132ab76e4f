import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Alert, Group, Paper, Stack, Text, Title } from "@mantine/core";
import { Form, useNavigation } from "@remix-run/react";
import { deployCommitRequestSchema } from "#contract/deploy-on-push";
import { Button } from "~/components/button";
import { TextField } from "~/components/forms";
import { Restricted, RestrictedFields } from "~/components/restricted";
import { useCanInCurrentEnvironment } from "~/features/permissions/permissions";
import type { ServiceActionData } from "~/features/services/details/action-data";

/**
 * Deploys a chosen commit of an application built from GitHub (a SHA, a branch or a tag), as `cloud-console deploy
 * --ref` does: GitHub resolves it, and it deploys as a push would, even an older commit. Deploy on push need not be
 * on. GitHub's "no such commit" shows at the field, with what was typed kept.
 */
export function DeployCommitPanel({
  repository,
  actionData,
}: {
  repository: string | null;
  actionData: ServiceActionData | undefined;
}) {
  const navigation = useNavigation();
  const canDeploy = useCanInCurrentEnvironment("services.deploy");
  const mine = actionData?.form === "deploy-commit" ? actionData : undefined;
  const [form, fields] = useForm({
    id: "deploy-commit",
    lastResult: mine?.result,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: deployCommitRequestSchema }),
    shouldValidate: "onSubmit",
  });
  const submitting = navigation.state !== "idle" && navigation.formData?.get("intent") === "deploy-commit";
  return (
    <Paper withBorder p="lg" maw={820} component="section" aria-labelledby="deploy-commit-title">
      <Form method="post" preventScrollReset {...getFormProps(form)}>
        <input type="hidden" name="intent" value="deploy-commit" />
        <Stack gap="md">
          <Title order={3} size="h4" id="deploy-commit-title">
            Deploy a commit
          </Title>
          <Text size="sm" c="dimmed">
            Builds and deploys the commit you name{repository ? ` in ${repository}` : ""}, even an older one
            (to go back to it). A deployment that is running finishes first.
          </Text>
          {mine?.error ? (
            <Alert color="red" role="alert">
              {mine.error}
            </Alert>
          ) : null}
          <RestrictedFields allowed={canDeploy}>
            <TextField
              field={fields.ref}
              label="Commit, branch or tag"
              description="A commit SHA (the first 7 characters are enough), a branch or a tag"
              placeholder="1a2b3c4"
              autoComplete="off"
              spellCheck={false}
            />
          </RestrictedFields>
          <Group justify="flex-end">
            <Restricted allowed={canDeploy}>
              <Button type="submit" loading={submitting}>
                Deploy commit
              </Button>
            </Restricted>
          </Group>
        </Stack>
      </Form>
    </Paper>
  );
}
