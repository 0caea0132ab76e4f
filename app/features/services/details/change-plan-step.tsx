import { Alert, Stack, Text, TextInput } from "@mantine/core";
import type { ChangePlan } from "#contract/change-plans";
import { Button } from "~/components/button";
import { typeNameToConfirm } from "~/components/confirm-by-name";
import { labelOfKey } from "./config-labels";

/** `config.storageGb` → "Storage (GB)", `settings.scaling.maxInstances` → "Max instances": a plan's paths in words. */
function labelOfPath(path: string): string {
  return labelOfKey(path.split(".").at(-1) ?? path);
}

/**
 * The plan of a deployment that replaces the service and deletes its data, as the next step of the form it sits
 * in: what is replaced, what is updated in place, what is lost, and the service's name to type. Submitting the
 * form again with the name deploys (the platform checks the name too); it needs no JavaScript.
 */
export function ChangePlanStep({
  plan,
  serviceName,
  confirmationError,
  intent,
  submitting,
}: {
  plan: ChangePlan;
  serviceName: string;
  confirmationError: string | undefined;
  /** The intent the confirming submit sends (the form's own deploying intent). */
  intent: string;
  submitting: boolean;
}) {
  return (
    <Alert
      color="red"
      title={`This change ${plan.summary.toLowerCase()}`}
      role="alert"
      data-testid="change-plan"
    >
      <Stack gap="sm">
        <Stack gap={2}>
          {plan.replace.length ? (
            <Text size="sm">Replaced because of: {plan.replace.map(labelOfPath).join(", ")}</Text>
          ) : null}
          {plan.inPlace.length ? (
            <Text size="sm">Updated in place: {plan.inPlace.map(labelOfPath).join(", ")}</Text>
          ) : null}
          {plan.other.length ? (
            <Text size="sm">Also changed: {plan.other.map(labelOfPath).join(", ")}</Text>
          ) : null}
          {plan.loses.length ? (
            <Text size="sm">Lost with the service it replaces: {plan.loses.join(", ")}</Text>
          ) : null}
        </Stack>
        <Text size="sm">The service is deleted and created anew, empty. This cannot be undone.</Text>
        <TextInput
          name="confirmation"
          label={typeNameToConfirm(serviceName)}
          autoComplete="off"
          error={confirmationError}
        />
        <Button type="submit" name="intent" value={intent} variant="danger" loading={submitting}>
          Replace and deploy
        </Button>
      </Stack>
    </Alert>
  );
}

/** The plan of the form's unsaved values, shown above its buttons as they change (with JavaScript). */
export function ChangePlanPreview({ plan }: { plan: ChangePlan }) {
  const parts = [
    plan.replace.length ? `replaced because of ${plan.replace.map(labelOfPath).join(", ")}` : null,
    plan.inPlace.length ? `in place: ${plan.inPlace.map(labelOfPath).join(", ")}` : null,
    plan.loses.length ? `loses ${plan.loses.join(", ")}` : null,
  ].filter(Boolean);
  return (
    <Text
      size="sm"
      c={plan.replace.length ? "red" : "dimmed"}
      data-testid="change-plan-preview"
      aria-live="polite"
    >
      Deploying: {plan.summary}
      {parts.length ? ` (${parts.join("; ")})` : ""}.
    </Text>
  );
}
