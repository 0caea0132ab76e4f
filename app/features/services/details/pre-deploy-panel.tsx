import { Alert, Group, Paper, Stack, Text, Title } from "@mantine/core";
import { Form, useNavigation } from "@remix-run/react";
import type { Resource } from "#contract/services";
import { Button } from "~/components/button";
import { Restricted } from "~/components/restricted";
import { useCanInCurrentEnvironment } from "~/features/permissions/permissions";
import type { ServiceActionData } from "./action-data";
import { diffValues } from "./config-diff";
import { DiffTable } from "./diff-table";
import { ChangePlanStep } from "./lazy-panels";

/** What a launch would change: the waiting draft against what runs now. */
export function PreDeployPanel({
  service,
  actionData,
}: {
  service: Resource;
  actionData: ServiceActionData | undefined;
}) {
  const navigation = useNavigation();
  const pending = (intent: string) =>
    navigation.state !== "idle" && navigation.formData?.get("intent") === intent;
  const canConfigure = useCanInCurrentEnvironment("services.configure");
  const canDeploy = useCanInCurrentEnvironment("services.deploy");
  if (!service.draft) {
    return (
      <Text c="dimmed" data-testid="pre-deploy-empty">
        Nothing is waiting to be deployed. Save a draft from the Configuration tab to review it here first.
      </Text>
    );
  }
  // Deploying this draft replaces the service and deletes its data: the platform asked for the name first.
  const plan = actionData?.form === "relaunch" ? actionData.plan : undefined;
  const configDiff = diffValues(service.config, service.draft.config);
  const settingsDiff = diffValues(service.settings, service.draft.settings);
  return (
    <Stack gap="md">
      {actionData?.form === "discard-draft" && actionData.error ? (
        <Alert color="red" title="Not discarded" role="alert">
          {actionData.error}
        </Alert>
      ) : null}
      <Paper withBorder p="md">
        <Stack gap="sm">
          <Title order={3} size="h4">
            Configuration
          </Title>
          <DiffTable diff={configDiff} label="Configuration changes" />
          <Title order={3} size="h4">
            Settings
          </Title>
          <DiffTable diff={settingsDiff} label="Settings changes" />
        </Stack>
      </Paper>
      <Group justify="flex-end" gap="sm">
        <Form method="post" preventScrollReset>
          <input type="hidden" name="version" value={service.version} />
          <Restricted allowed={canConfigure}>
            <Button
              type="submit"
              name="intent"
              value="discard-draft"
              variant="secondary"
              loading={pending("discard-draft")}
            >
              Discard
            </Button>
          </Restricted>
        </Form>
        {plan ? null : (
          <Form method="post" preventScrollReset>
            <Restricted allowed={canDeploy}>
              <Button type="submit" name="intent" value="relaunch" loading={pending("relaunch")}>
                Deploy changes
              </Button>
            </Restricted>
          </Form>
        )}
      </Group>
      {plan ? (
        <Form method="post" preventScrollReset>
          <ChangePlanStep step={plan} service={service} intent="relaunch" submitting={pending("relaunch")} />
        </Form>
      ) : null}
    </Stack>
  );
}
