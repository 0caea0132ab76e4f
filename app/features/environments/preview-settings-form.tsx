import { getFormProps, getInputProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { Alert, Checkbox, Code, Group, Input, Paper, Stack, Text, Title } from "@mantine/core";
import * as z from "zod";
import {
  DEFAULT_PREVIEW_NAME_PATTERN,
  MAX_IDLE_DAYS,
  MAX_PREVIEWS_LIMIT,
  previewMessages,
  previewSettingsRequestSchema,
  type PreviewSettings,
} from "#contract/previews";
import { Button } from "~/components/button";
import { FormErrors, NumberField, SelectField, SwitchField, TextField } from "~/components/forms";
import { RestrictedFields, Restricted } from "~/components/restricted";

export const PREVIEW_SETTINGS_INTENT = "previews";

/** The contract's setting as a form submits it: an unchecked switch sends nothing (off), no box ticked nothing. */
export const previewSettingsFormSchema = previewSettingsRequestSchema.extend({
  enabled: z.boolean().default(false),
  connectionId: z.uuid({ error: previewMessages.notGitHubConnection }),
  applicationIds: z
    .array(z.uuid(), { error: previewMessages.noApplications })
    .min(1, previewMessages.noApplications),
});

/**
 * The environment's preview setting (issue 28): which GitHub repository's pull requests get a preview, which of the
 * environment's applications build from them, the name pattern, an optional seed command and the limits. After the
 * first save, the webhook's secret is shown here once.
 */
export function PreviewSettingsForm({
  settings,
  connections,
  applications,
  canConfigure,
  lastResult,
  secret,
  submitting,
}: {
  settings: PreviewSettings | null;
  connections: { id: string; name: string }[];
  applications: { id: string; name: string }[];
  canConfigure: boolean;
  lastResult?: SubmissionResult<string[]> | null;
  /** The webhook's secret, answered by the save that made the webhook. */
  secret?: string;
  submitting: boolean;
}) {
  const [form, fields] = useForm({
    id: "preview-settings",
    lastResult,
    defaultValue: settings ?? {
      enabled: true,
      namePattern: DEFAULT_PREVIEW_NAME_PATTERN,
      maxPreviews: 3,
      idleDays: 7,
      applicationIds: [],
      seedCommand: "",
    },
    constraint: getZodConstraint(previewSettingsFormSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: previewSettingsFormSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  const chosen = new Set(settings?.applicationIds ?? []);
  return (
    <Paper withBorder p="lg" maw={640} aria-labelledby="preview-settings-title">
      <form method="post" {...getFormProps(form)}>
        <input type="hidden" name="intent" value={PREVIEW_SETTINGS_INTENT} />
        <Stack gap="md">
          <Stack gap={4}>
            <Title order={3} id="preview-settings-title">
              Preview environments
            </Title>
            <Text size="sm" c="dimmed">
              Each pull request gets its own copy of this environment, with fresh data, at its own URL.
            </Text>
          </Stack>
          {secret && settings ? (
            <Alert
              color="yellow"
              title="Add this webhook to the repository"
              data-testid="preview-webhook-secret"
            >
              <Text size="sm">
                In {settings.repository}&apos;s Settings → Webhooks, add the payload URL{" "}
                <Code>{settings.webhookUrl}</Code> (content type application/json, “Pull requests” events)
                with the secret <Code>{secret}</Code>. It is shown only now.
              </Text>
            </Alert>
          ) : settings ? (
            <Text size="sm">
              Webhook: <Code>{settings.webhookUrl}</Code>
            </Text>
          ) : null}
          <FormErrors errors={form.errors} id={form.errorId} />
          <RestrictedFields allowed={canConfigure}>
            <SwitchField field={fields.enabled} label="Previews for pull requests" />
            <SelectField
              field={fields.connectionId}
              label="GitHub connection"
              data={connections.map((connection) => ({ value: connection.id, label: connection.name }))}
            />
            <TextField field={fields.repository} label="Repository" description="owner/name" />
            {/* Not a Checkbox.Group, which would control the boxes: each box submits its application's id. */}
            <Input.Wrapper
              label="Applications built from the pull request"
              description="The others keep their image."
              error={fields.applicationIds.errors?.[0]}
            >
              <Stack gap={4} mt={4}>
                {applications.map((application) => {
                  const { key: _key, ...inputProps } = getInputProps(fields.applicationIds, {
                    type: "checkbox",
                    value: application.id,
                  });
                  return (
                    <Checkbox
                      key={application.id}
                      {...inputProps}
                      id={`${fields.applicationIds.id}-${application.id}`}
                      defaultChecked={chosen.has(application.id)}
                      label={application.name}
                    />
                  );
                })}
              </Stack>
            </Input.Wrapper>
            <TextField
              field={fields.namePattern}
              label="Name pattern"
              description="{number} is the pull request's number, {environment} this environment's name."
            />
            <TextField
              field={fields.seedCommand}
              label="Seed command"
              description="Optional: run once, in a preview's first deployment, by the first application built from the pull request, after its pre-deploy command (fills the fresh databases)"
              autoComplete="off"
            />
            <Group grow align="flex-start">
              <NumberField
                field={fields.maxPreviews}
                label="Most previews at once"
                min={1}
                max={MAX_PREVIEWS_LIMIT}
              />
              <NumberField
                field={fields.idleDays}
                label="Days an idle preview lives"
                min={1}
                max={MAX_IDLE_DAYS}
              />
            </Group>
          </RestrictedFields>
          <Group justify="flex-end">
            <Restricted allowed={canConfigure}>
              <Button type="submit" loading={submitting}>
                Save preview setting
              </Button>
            </Restricted>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
