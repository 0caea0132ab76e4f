import { Alert, Stack } from "@mantine/core";
import type { Resource } from "#contract/services";
import type { ServiceActionData } from "~/features/services/details/action-data";
import { DeployCommitPanel } from "./deploy-commit-panel";
import { DeployOnPushPanel, type DeployOnPushState } from "./deploy-on-push-panel";
import { ApplicationConfigPanel, type ApplicationEditChoices } from "./edit-panel";

/**
 * The configuration tab of an application: its form and, when it builds from GitHub, deploy on push and deploying a
 * chosen commit.
 */
export function ApplicationConfigTab({
  environmentName,
  service,
  editing,
  deployOnPush,
  actionData,
}: {
  environmentName: string;
  service: Resource;
  editing: { kind: "ok"; value: ApplicationEditChoices } | { kind: "error"; message: string };
  deployOnPush: DeployOnPushState | null;
  actionData: ServiceActionData | undefined;
}) {
  return (
    <Stack gap="md">
      {editing.kind === "ok" ? (
        <ApplicationConfigPanel
          environmentName={environmentName}
          service={service}
          editing={editing.value}
          actionData={actionData}
        />
      ) : (
        <Alert color="red" role="alert" title="The configuration could not be loaded">
          {editing.message}
        </Alert>
      )}
      {deployOnPush ? (
        <DeployOnPushPanel
          environmentName={environmentName}
          serviceId={service.id}
          state={deployOnPush}
          actionData={actionData}
        />
      ) : null}
      {deployOnPush ? (
        <DeployCommitPanel
          repository={deployOnPush.kind === "ok" ? (deployOnPush.value?.repository ?? null) : null}
          actionData={actionData}
        />
      ) : null}
    </Stack>
  );
}
