import {
  Alert,
  Anchor,
  Badge,
  Code,
  CopyButton,
  Group,
  Modal,
  Paper,
  Stack,
  Text,
  Title,
} from "@mantine/core";
import { Form, Link, useNavigation } from "@remix-run/react";
import { useState } from "react";
import type { DeployOnPush } from "#contract/deploy-on-push";
import { Button } from "~/components/button";
import { Restricted } from "~/components/restricted";
import { useCanInCurrentEnvironment } from "~/features/permissions/permissions";
import type { ServiceActionData } from "~/features/services/details/action-data";
import { servicePagePaths } from "~/features/services/paths";
import { formatDateTime } from "~/components/date-time";

/** What the loader gives the panel: the settings (null before the first switch-on), or why they could not load. */
export type DeployOnPushState =
  | { kind: "ok"; value: DeployOnPush | null }
  | { kind: "error"; message: string };

/**
 * Deploy on push of an application built from GitHub (decision 034): switched on and off, the webhook's Payload URL
 * and, once when it is made (the first switch-on or a new one), its secret to paste into GitHub; the last push.
 * The secret is never in page data: only the action that made it answers it, to the member who may configure.
 */
export function DeployOnPushPanel({
  environmentName,
  serviceId,
  state,
  actionData,
}: {
  environmentName: string;
  serviceId: string;
  state: DeployOnPushState;
  actionData: ServiceActionData | undefined;
}) {
  const navigation = useNavigation();
  const canConfigure = useCanInCurrentEnvironment("services.configure");
  const [confirmingRotation, setConfirmingRotation] = useState(false);
  const submitting = (intent: string) =>
    navigation.state !== "idle" && navigation.formData?.get("intent") === intent;
  const mine = actionData?.form === "deploy-on-push" ? actionData : undefined;
  const settings = state.kind === "ok" ? state.value : null;

  return (
    <Paper withBorder p="lg" maw={820} component="section" aria-labelledby="deploy-on-push-title">
      <Stack gap="md">
        <Group justify="space-between">
          <Title order={3} size="h4" id="deploy-on-push-title">
            Deploy on push
          </Title>
          {state.kind === "ok" ? (
            <Badge color={settings?.enabled ? "green" : "gray"} data-testid="deploy-on-push-status">
              {settings?.enabled ? "On" : "Off"}
            </Badge>
          ) : null}
        </Group>
        <Text size="sm" c="dimmed">
          Each push to the branch deploys its newest commit: GitHub calls this application&apos;s webhook,
          signed with its secret. Pushes to other branches are ignored.
        </Text>
        {state.kind === "error" ? (
          <Alert color="red" role="alert" title="Deploy on push could not be loaded">
            {state.message}
          </Alert>
        ) : null}
        {mine?.error ? (
          <Alert color="red" role="alert">
            {mine.error}
          </Alert>
        ) : null}
        {mine?.secret ? <NewSecret secret={mine.secret} /> : null}
        {settings ? (
          <Stack gap="xs">
            <Text size="sm">
              Builds <b>{settings.repository ?? "—"}</b> on branch <b>{settings.branch ?? "—"}</b>.
            </Text>
            <Text size="sm" fw={500}>
              In the repository&apos;s Settings → Webhooks → Add webhook:
            </Text>
            <Group gap="xs" wrap="nowrap">
              <Text size="sm" w={140}>
                Payload URL
              </Text>
              <Code data-testid="deploy-on-push-url" style={{ wordBreak: "break-all" }}>
                {settings.webhookUrl}
              </Code>
              <CopyButton value={settings.webhookUrl}>
                {({ copied, copy }) => (
                  <Button variant="ghost" size="small" aria-label="Copy the payload URL" onClick={copy}>
                    {copied ? "Copied" : "Copy"}
                  </Button>
                )}
              </CopyButton>
            </Group>
            <Group gap="xs">
              <Text size="sm" w={140}>
                Content type
              </Text>
              <Code>application/json</Code>
            </Group>
            <Group gap="xs">
              <Text size="sm" w={140}>
                Secret
              </Text>
              <Text size="sm" c="dimmed">
                Made {formatDateTime(settings.secretCreatedAt)}; shown only when made. Lost it? Make a new
                one.
              </Text>
            </Group>
            <Group gap="xs">
              <Text size="sm" w={140}>
                Events
              </Text>
              <Text size="sm">Just the push event</Text>
            </Group>
            <LastPush environmentName={environmentName} serviceId={serviceId} settings={settings} />
          </Stack>
        ) : state.kind === "ok" ? (
          <Text size="sm" data-testid="deploy-on-push-never">
            Not switched on yet. Switching it on makes the webhook&apos;s address and its secret.
          </Text>
        ) : null}
        {state.kind === "ok" ? (
          <Group justify="flex-end">
            {settings ? (
              <Restricted allowed={canConfigure}>
                <Button variant="secondary" onClick={() => setConfirmingRotation(true)}>
                  Make a new secret
                </Button>
              </Restricted>
            ) : null}
            <Form method="post" preventScrollReset>
              <input type="hidden" name="intent" value="deploy-on-push" />
              <input type="hidden" name="enabled" value={settings?.enabled ? "false" : "true"} />
              <Restricted allowed={canConfigure}>
                <Button
                  type="submit"
                  variant={settings?.enabled ? "secondary" : "primary"}
                  loading={submitting("deploy-on-push")}
                >
                  {settings?.enabled ? "Turn off deploy on push" : "Turn on deploy on push"}
                </Button>
              </Restricted>
            </Form>
          </Group>
        ) : null}
      </Stack>
      <Modal
        opened={confirmingRotation}
        onClose={() => setConfirmingRotation(false)}
        title="Make a new secret"
      >
        <Form method="post" preventScrollReset onSubmit={() => setConfirmingRotation(false)}>
          <input type="hidden" name="intent" value="rotate-deploy-secret" />
          <Stack gap="md">
            <Text size="sm">
              Pushes signed with the current secret are refused from then on, until the webhook in GitHub is
              given the new one.
            </Text>
            <Group justify="flex-end">
              <Button variant="ghostSecondary" onClick={() => setConfirmingRotation(false)}>
                Cancel
              </Button>
              <Button type="submit" loading={submitting("rotate-deploy-secret")}>
                Make a new secret
              </Button>
            </Group>
          </Stack>
        </Form>
      </Modal>
    </Paper>
  );
}

/** The secret just made: shown this once, to copy into GitHub. */
function NewSecret({ secret }: { secret: string }) {
  return (
    <Alert color="yellow" title="Copy the secret now" data-testid="deploy-on-push-secret-alert">
      <Stack gap="xs">
        <Text size="sm">Paste it into the webhook&apos;s Secret field in GitHub. It is not shown again.</Text>
        <Group gap="xs" wrap="nowrap">
          <Code data-testid="deploy-on-push-secret" style={{ wordBreak: "break-all" }}>
            {secret}
          </Code>
          <CopyButton value={secret}>
            {({ copied, copy }) => (
              <Button variant="ghost" size="small" aria-label="Copy the secret" onClick={copy}>
                {copied ? "Copied" : "Copy"}
              </Button>
            )}
          </CopyButton>
        </Group>
      </Stack>
    </Alert>
  );
}

function LastPush({
  environmentName,
  serviceId,
  settings,
}: {
  environmentName: string;
  serviceId: string;
  settings: DeployOnPush;
}) {
  const push = settings.lastPush;
  return (
    <Group gap="xs" align="flex-start" wrap="nowrap">
      <Text size="sm" w={140} style={{ flexShrink: 0 }}>
        Last push
      </Text>
      {push ? (
        <Stack gap={2} data-testid="deploy-on-push-last">
          <Text size="sm">
            {/* A commit deployed by its SHA has no branch of its own. */}
            <Code>{push.sha.slice(0, 7)}</Code>
            {push.sha.startsWith(push.branch) ? "" : ` on ${push.branch}`} by {push.author}: {push.message}
          </Text>
          <Text size="xs" c="dimmed">
            Received {formatDateTime(push.receivedAt)} ·{" "}
            {push.historyId ? (
              <Anchor
                component={Link}
                to={servicePagePaths.details(environmentName, serviceId, { tab: "history" })}
                size="xs"
              >
                its deployment in the history
              </Anchor>
            ) : (
              "waiting for the running deployment to end"
            )}
          </Text>
        </Stack>
      ) : (
        <Text size="sm" c="dimmed">
          None received yet.
        </Text>
      )}
    </Group>
  );
}
