import { Alert, Badge, Group, Paper, Stack, Text, Timeline } from "@mantine/core";
import { Form, Link, useNavigation } from "@remix-run/react";
import { isCloningFailure } from "#contract/cloning";
import type { CloneState } from "#contract/environments";
import { Button } from "~/components/button";
import { Restricted } from "~/components/restricted";
import { useCanInCurrentEnvironment } from "~/features/permissions/permissions";
import { servicePagePaths } from "~/features/services/paths";
import {
  cloneStepLabels,
  cloneStepViews,
  reviewStepMessage,
  type CloneStepStatus,
  type CloneStepView,
} from "./clone-steps";
import { formatDateTime } from "~/components/date-time";

const statusLooks: Record<CloneStepStatus, { label: string; color: string }> = {
  pending: { label: "Pending", color: "gray" },
  running: { label: "In progress", color: "blue" },
  waiting: { label: "Waiting for you", color: "warning" },
  done: { label: "Done", color: "success" },
  failed: { label: "Failed", color: "error" },
};

/** Each step of the clone with its status; the step waiting for the user carries what they can do. */
export function CloneProgress({ state, environmentName }: { state: CloneState; environmentName: string }) {
  const steps = cloneStepViews(state);
  const active = steps.findLastIndex((step) => step.status !== "pending");
  return (
    <Stack gap="lg">
      {isCloningFailure(state.infraState) ? <CloneFailure state={state} steps={steps} /> : null}
      <Timeline active={active} bulletSize={20} lineWidth={2} aria-label="Clone steps">
        {steps.map((step) => (
          <Timeline.Item
            key={step.step}
            color={statusLooks[step.status].color}
            title={<StepTitle step={step} />}
            data-testid={`clone-step-${step.step}`}
            data-status={step.status}
          >
            {step.startedAt ? (
              <Text size="xs" c="dimmed">
                Started {formatDateTime(step.startedAt)}
              </Text>
            ) : null}
            {step.step === "WAITING_FOR_LAUNCH_RESOURCES_EVENT" && step.status === "waiting" ? (
              <LaunchResources />
            ) : null}
            {step.step === "REVIEW_AND_DEPLOY_APPLICATIONS" && step.status === "waiting" ? (
              <ReviewAndDeploy environmentName={environmentName} resources={state.resources} />
            ) : null}
          </Timeline.Item>
        ))}
      </Timeline>
    </Stack>
  );
}

function StepTitle({ step }: { step: CloneStepView }) {
  const look = statusLooks[step.status];
  return (
    <Group gap="xs">
      <Text fw={600}>{step.label}</Text>
      <Badge size="sm" variant="light" color={look.color}>
        {look.label}
      </Badge>
    </Group>
  );
}

function CloneFailure({ state, steps }: { state: CloneState; steps: CloneStepView[] }) {
  const failed = steps.find((step) => step.status === "failed");
  return (
    <Alert color="red" title={`${failed ? cloneStepLabels[failed.step] : "Cloning"} failed`} role="alert">
      <Stack gap="sm">
        <Text size="sm" style={{ whiteSpace: "pre-wrap" }} data-testid="clone-failure-details">
          {state.details ?? "The platform reported no details."}
        </Text>
        <Text size="sm">Exit the clone to use or delete this environment; it is then marked failed.</Text>
        <ExitButton label="Exit cloning" variant="secondary" />
      </Stack>
    </Alert>
  );
}

function useSubmitting(intent: string) {
  const navigation = useNavigation();
  return navigation.state === "submitting" && navigation.formData?.get("intent") === intent;
}

function LaunchResources() {
  const submitting = useSubmitting("launch-resources");
  const canDeploy = useCanInCurrentEnvironment("services.deploy");
  return (
    <Paper withBorder p="md" mt="xs">
      <Stack gap="sm">
        <Text size="sm">
          The cloned resources are ready as drafts. Review them, then launch them to create them in your
          cloud.
        </Text>
        <Form method="post">
          <Restricted allowed={canDeploy}>
            <Button type="submit" name="intent" value="launch-resources" loading={submitting}>
              Launch resources
            </Button>
          </Restricted>
        </Form>
      </Stack>
    </Paper>
  );
}

function ExitButton({ label, variant }: { label: string; variant: "primary" | "secondary" }) {
  const submitting = useSubmitting("exit");
  const canConfigure = useCanInCurrentEnvironment("environments.configure");
  return (
    <Form method="post">
      <Restricted allowed={canConfigure}>
        <Button type="submit" name="intent" value="exit" variant={variant} loading={submitting}>
          {label}
        </Button>
      </Restricted>
    </Form>
  );
}

function ReviewAndDeploy({
  environmentName,
  resources,
}: {
  environmentName: string;
  resources: CloneState["resources"];
}) {
  return (
    <Paper withBorder p="md" mt="xs" data-testid="review-and-deploy">
      <Stack gap="sm">
        <Text size="sm" data-testid="review-resources">
          {reviewStepMessage(resources)}
        </Text>
        <Text size="sm">
          It is over to you: review the draft applications and deploy them. Finish cloning to leave the clone
          flow.
        </Text>
        <Group gap="sm">
          <Button component={Link} to={servicePagePaths.list(environmentName)} variant="secondary">
            Review services
          </Button>
          <ExitButton label="Finish cloning" variant="primary" />
        </Group>
      </Stack>
    </Paper>
  );
}
