import { Alert } from "@mantine/core";

/**
 * On a form whose save the platform refuses while the service deploys, syncs or waits (a busy stage): the page
 * polls meanwhile, so the save button comes back by itself once the deployment ends, with the user's input kept.
 */
export function DeploymentRunningNotice() {
  return (
    <Alert color="blue" title="A deployment is in progress" data-testid="deployment-running-notice">
      Changes can be saved once it finishes. What you type here is kept until then.
    </Alert>
  );
}
