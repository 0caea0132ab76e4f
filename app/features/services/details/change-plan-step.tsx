import { Alert, List, Stack, Text, TextInput } from "@mantine/core";
import { useNavigation, useParams } from "@remix-run/react";
import type { ChangePlan } from "#contract/change-plans";
import type { ServiceType } from "#contract/service-catalogue";
import type { Resource } from "#contract/services";
import { Button } from "~/components/button";
import { typeNameToConfirm } from "~/components/confirm-by-name";
import type { ServiceActionData } from "./action-data";
import { changeLabel, changeValue } from "#contract/change-words";
import { useChangePlan } from "./use-change-plan";

/**
 * A configuration form's plan, above its buttons, for every type and for applications: the step of a deployment
 * the platform refused until the name is typed, else the plan of the form's unsaved values as they change.
 */
export function ConfigChangePlan({
  service,
  step,
  form,
}: {
  service: Resource;
  step: ServiceActionData["plan"];
  form: { id: string; value: unknown; dirty: boolean };
}) {
  const navigation = useNavigation();
  const preview = useChangePlan({
    environmentName: useParams().environmentName ?? "",
    serviceId: service.id,
    formId: form.id,
    formValue: form.value,
    dirty: form.dirty,
  });
  if (step) {
    return (
      <ChangePlanStep
        step={step}
        service={service}
        intent="save-config"
        submitting={navigation.state !== "idle" && navigation.formData?.has("confirmation") === true}
      />
    );
  }
  return preview ? <ChangePlanPreview plan={preview} serviceType={service.serviceType} /> : null;
}

/**
 * A plan's changes in the form's words, old → new, with how each lands: "Storage (GB): 30 → 20" and "replaces
 * the service"; those that replace it first.
 */
function changeRows(plan: ChangePlan, serviceType: ServiceType) {
  const landing = (path: string) =>
    plan.replace.includes(path) ? "replaces the service" : plan.inPlace.includes(path) ? "in place" : null;
  const rank = (path: string) => (plan.replace.includes(path) ? 0 : plan.inPlace.includes(path) ? 1 : 2);
  return (
    plan.changes
      // An application's settings are derived from its configuration: its form changed only the latter.
      .filter((change) => serviceType !== "application" || change.path.startsWith("config."))
      .sort((a, b) => rank(a.path) - rank(b.path))
      .map((change) => ({
        path: change.path,
        text: `${changeLabel(serviceType, change.path)}: ${changeValue(serviceType, change.path, change.before)} → ${changeValue(serviceType, change.path, change.after)}`,
        landing: landing(change.path),
      }))
  );
}

/**
 * The plan of a deployment that loses something (the service's data when it is replaced, or its address), as the
 * next step of the form it sits in: each change and how it lands, what is lost, and the service's name to type.
 * Submitting the form again with the name deploys (the platform checks the name too); it needs no JavaScript.
 */
export function ChangePlanStep({
  step: { plan, confirmationError },
  service: { serviceType, name: serviceName },
  intent,
  submitting,
}: {
  /** The plan the action answered, and what was typed wrong, if anything. */
  step: NonNullable<ServiceActionData["plan"]>;
  service: Pick<Resource, "serviceType" | "name">;
  /** The intent the confirming submit sends (the form's own deploying intent). */
  intent: string;
  submitting: boolean;
}) {
  const replaces = plan.replace.length > 0;
  return (
    <Alert
      color="red"
      title={`This change ${plan.summary.toLowerCase()}`}
      role="alert"
      data-testid="change-plan"
    >
      <Stack gap="sm">
        <List size="sm" aria-label="Changes">
          {changeRows(plan, serviceType).map((row) => (
            <List.Item key={row.path}>
              {row.text}
              {row.landing ? ` (${row.landing})` : ""}
            </List.Item>
          ))}
        </List>
        {replaces ? (
          <Text size="sm">
            Lost with the service it replaces: {plan.loses.join(", ")}. The service is deleted and created
            anew, empty. This cannot be undone.
          </Text>
        ) : (
          <Text size="sm">
            Lost: {plan.loses.join(", ")}. Whoever reaches the service at its current address will not find it
            there once this is deployed.
          </Text>
        )}
        <TextInput
          name="confirmation"
          label={typeNameToConfirm(serviceName)}
          autoComplete="off"
          error={confirmationError}
        />
        <Button type="submit" name="intent" value={intent} variant="danger" loading={submitting}>
          {replaces ? "Replace and deploy" : "Deploy with the new address"}
        </Button>
      </Stack>
    </Alert>
  );
}

/** The plan of the form's unsaved values, shown above its buttons as they change (with JavaScript). */
export function ChangePlanPreview({ plan, serviceType }: { plan: ChangePlan; serviceType: ServiceType }) {
  const parts = [
    ...changeRows(plan, serviceType).map((row) => (row.landing ? `${row.text}, ${row.landing}` : row.text)),
    plan.loses.length ? `loses ${plan.loses.join(", ")}` : null,
  ].filter(Boolean);
  return (
    <Text
      size="sm"
      c={plan.confirmationRequired ? "red" : "dimmed"}
      data-testid="change-plan-preview"
      aria-live="polite"
    >
      Deploying: {plan.summary}
      {parts.length ? ` (${parts.join("; ")})` : ""}.
    </Text>
  );
}
