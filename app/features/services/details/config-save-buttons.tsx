import { Alert, Group } from "@mantine/core";
import { useNavigation } from "@remix-run/react";
import { isBusyStage } from "#contract/service-catalogue";
import { type Resource } from "#contract/services";
import { Button } from "~/components/button";
import { FormErrors } from "~/components/forms";
import { Restricted } from "~/components/restricted";
import { useCanInCurrentEnvironment } from "~/features/permissions/permissions";
import { ConflictNotice } from "./conflict-notice";
import { DeploymentRunningNotice } from "./deployment-running-notice";
import type { useConflict } from "./use-form-baseline";

/** A configuration form's Undo changes, Save draft and Save and deploy, for every type and for applications. */
export function ConfigSaveButtons({
  service,
  dirty,
  onUndo,
}: {
  service: Resource;
  dirty: boolean;
  onUndo: () => void;
}) {
  const navigation = useNavigation();
  const saving = (intent: string) =>
    navigation.state !== "idle" && navigation.formData?.get("intent") === intent;
  const deploying = isBusyStage(service.stage);
  const canConfigure = useCanInCurrentEnvironment("services.configure");
  const canDeploy = useCanInCurrentEnvironment("services.deploy");
  return (
    <Group justify="flex-end">
      <Button variant="ghostSecondary" disabled={!dirty} onClick={onUndo}>
        Undo changes
      </Button>
      <Restricted allowed={canConfigure}>
        <Button
          type="submit"
          name="intent"
          value="save-config-draft"
          variant="secondary"
          loading={saving("save-config-draft")}
          disabled={deploying}
        >
          Save draft
        </Button>
      </Restricted>
      <Restricted allowed={canConfigure && canDeploy}>
        <Button
          type="submit"
          name="intent"
          value="save-config"
          loading={saving("save-config")}
          disabled={deploying}
        >
          Save and deploy
        </Button>
      </Restricted>
    </Group>
  );
}

/** What a configuration form says above its fields: a waiting draft, a running deployment, a conflict, its errors. */
export function ConfigFormNotices({
  service,
  conflict,
  errors,
  errorId,
}: {
  service: Resource;
  conflict: ReturnType<typeof useConflict>;
  errors: string[] | undefined;
  errorId: string;
}) {
  return (
    <>
      {service.draft ? (
        <Alert color="blue" title="A draft is waiting">
          You are editing the saved draft. Deploy it from the Pre-deploy tab, or save and deploy here.
        </Alert>
      ) : null}
      {isBusyStage(service.stage) ? <DeploymentRunningNotice /> : null}
      {conflict ? <ConflictNotice conflict={conflict} /> : null}
      <FormErrors errors={conflict ? undefined : errors} id={errorId} />
    </>
  );
}
