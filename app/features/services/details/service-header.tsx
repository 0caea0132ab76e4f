import { Alert, Anchor, Group, NativeSelect, Paper, Stack, Text, Title } from "@mantine/core";
import { Form, Link, useLocation, useNavigation } from "@remix-run/react";
import { useEffect, useState } from "react";
import { isBusyStage, serviceTypeLabels } from "#contract/service-catalogue";
import { type Resource } from "#contract/services";
import { Button } from "~/components/button";
import { ConfirmByNameDialog, ConfirmByNameForm } from "~/components/confirm-by-name-dialog";
import { ConfirmDialog } from "~/components/confirm-dialog";
import { Restricted } from "~/components/restricted";
import { formatUsd } from "~/features/environments/cost";
import { StageBadge } from "~/features/environments/stage-badge";
import { useCanInCurrentEnvironment } from "~/features/permissions/permissions";
import { servicePagePaths } from "../paths";
import type { ServiceActionData, ServiceIntent } from "./action-data";
import { deleteServiceSchema } from "./delete-service";
import { EndpointText, FailureNotice, ProgressNotice } from "./service-status";

type HeaderService = Pick<
  Resource,
  | "id"
  | "name"
  | "serviceType"
  | "stage"
  | "endpoint"
  | "monthlyCost"
  | "hasDraft"
  | "message"
  | "driftedAt"
  | "retries"
  | "progress"
>;

/** What deleting the service destroys in its cloud account, and what it keeps; nulls in the simulated cloud. */
type Deletion = { destroyed: string | null; kept: string | null };

/**
 * The service's name, type, stage, endpoint and cost, with the actions its stage allows; a failed deployment can
 * be reported as a ticket in each Jira connection (`ticketManagers`).
 */
export function ServiceHeader({
  environmentName,
  service,
  actionData,
  ticketManagers = [],
  deletion = { destroyed: null, kept: null },
  now,
}: {
  environmentName: string;
  service: HeaderService;
  /** When the page was loaded (ISO): how long the running step has waited is counted to then. */
  now: string;
  actionData: ServiceActionData | undefined;
  ticketManagers?: { id: string; name: string }[];
  /** What deleting the service destroys in its cloud account and what it keeps (features/services/deletion.server.ts). */
  deletion?: Deletion;
}) {
  const busy = isBusyStage(service.stage);
  const cancelable = service.stage === "STAGE_QUEUED" || service.stage === "STAGE_IN_PROGRESS";
  const failed = service.stage === "STAGE_FAILED";
  const canDelete = useCanInCurrentEnvironment("services.delete");
  const actionError =
    actionData?.error && ["relaunch", "retry", "cancel", "create-ticket"].includes(actionData.form)
      ? actionData.error
      : null;
  return (
    <Stack gap="sm">
      <Anchor component={Link} to={servicePagePaths.list(environmentName)} size="sm">
        ← Services
      </Anchor>
      <Group justify="space-between" align="flex-start">
        <Stack gap={4}>
          <Group gap="sm">
            <Title order={2} data-testid="service-title">
              {service.name}
            </Title>
            <StageBadge stage={service.stage} />
          </Group>
          <Group gap="lg">
            <Text size="sm" c="dimmed" data-testid="service-type">
              {serviceTypeLabels[service.serviceType]}
            </Text>
            <Text size="sm" data-testid="service-endpoint">
              Endpoint: <EndpointText service={service} />
            </Text>
            <Text size="sm" data-testid="service-monthly-cost">
              {formatUsd(service.monthlyCost)} / month
            </Text>
          </Group>
          <ProgressNotice service={service} now={now} />
        </Stack>
        <Group gap="sm">
          {cancelable ? <IntentButton intent="cancel" label="Cancel deployment" variant="secondary" /> : null}
          {failed ? <IntentButton intent="retry" label="Retry" variant="secondary" /> : null}
          {busy ? null : service.hasDraft ? (
            <IntentButton intent="relaunch" label="Deploy changes" />
          ) : (
            <RelaunchButton serviceName={service.name} />
          )}
          <DeleteServiceButton
            service={service}
            deletion={deletion}
            actionData={actionData}
            allowed={canDelete}
          />
        </Group>
      </Group>
      {busy || service.hasDraft ? null : <RelaunchStep serviceName={service.name} />}
      <FailureNotice service={service}>
        {ticketManagers.length ? <TicketForm ticketManagers={ticketManagers} /> : null}
      </FailureNotice>
      {actionData?.ticket ? (
        <Alert color="green" title="Ticket created" data-testid="service-ticket">
          <Anchor href={actionData.ticket.url} target="_blank" rel="noopener noreferrer">
            {actionData.ticket.key}
          </Anchor>{" "}
          describes the failure, with a link to its logs.
        </Alert>
      ) : null}
      {actionError ? (
        <Alert color="red" title="Not done" role="alert" data-testid="service-action-error">
          {actionError}
        </Alert>
      ) : null}
    </Stack>
  );
}

/** 'Create ticket': a Jira issue for the failed deployment, in the one Jira connection or the one chosen. */
function TicketForm({ ticketManagers }: { ticketManagers: { id: string; name: string }[] }) {
  const navigation = useNavigation();
  const canDeploy = useCanInCurrentEnvironment("services.deploy");
  const [only] = ticketManagers;
  return (
    <Form method="post" preventScrollReset>
      <Group gap="xs" mt="xs">
        {only && ticketManagers.length === 1 ? (
          <input type="hidden" name="connectionId" value={only.id} />
        ) : (
          <NativeSelect
            name="connectionId"
            aria-label="Jira connection"
            size="xs"
            data={ticketManagers.map(({ id, name }) => ({ value: id, label: name }))}
          />
        )}
        <Restricted allowed={canDeploy}>
          <Button
            type="submit"
            name="intent"
            value="create-ticket"
            variant="secondary"
            size="small"
            loading={navigation.formData?.get("intent") === "create-ticket"}
          >
            Create ticket
          </Button>
        </Restricted>
      </Group>
    </Form>
  );
}

/** One action as a POST form carrying its intent, so it works before (and without) JavaScript. */
function IntentButton({
  intent,
  label,
  variant = "primary",
}: {
  intent: ServiceIntent;
  label: string;
  variant?: "primary" | "secondary";
}) {
  const navigation = useNavigation();
  const submitting = navigation.state !== "idle" && navigation.formData?.get("intent") === intent;
  const canDeploy = useCanInCurrentEnvironment("services.deploy");
  return (
    <Form method="post" preventScrollReset>
      <Restricted allowed={canDeploy}>
        <Button type="submit" name="intent" value={intent} variant={variant} loading={submitting}>
          {label}
        </Button>
      </Restricted>
    </Form>
  );
}

/** The query parameter of Relaunch's confirmation step, for browsers without JavaScript. */
const CONFIRM_PARAM = "confirm";
const RELAUNCH_FORM_ID = "relaunch-service";

function relaunchQuestion(serviceName: string): string {
  return `Relaunch ${serviceName}? This deploys ${serviceName} again with its current configuration and replaces what runs now.`;
}

/**
 * The page's query without the confirmation step's parameter, and the address its forms post to: the details page
 * is an index route, so Remix needs `?index` there. (useLocation only: useFormAction and useSearchParams would grow
 * the router chunk every page loads.)
 */
function usePageWithoutStep() {
  const { pathname, search } = useLocation();
  const query = new URLSearchParams(search);
  const asked = query.get(CONFIRM_PARAM);
  query.delete(CONFIRM_PARAM);
  const rest = query.toString();
  return {
    asked,
    kept: [...query],
    action: `${pathname}?index${rest ? `&${rest}` : ""}`,
    back: rest ? `${pathname}?${rest}` : pathname,
  };
}

/**
 * "Relaunch": with JavaScript a dialog asks first; without it the button opens the page's confirmation step
 * (`?confirm=relaunch`, RelaunchStep). Either way the relaunch itself is the page's one "relaunch" form.
 */
function RelaunchButton({ serviceName }: { serviceName: string }) {
  const [opened, setOpened] = useState(false);
  const navigation = useNavigation();
  const canDeploy = useCanInCurrentEnvironment("services.deploy");
  const submitting = navigation.state !== "idle" && navigation.formData?.get("intent") === "relaunch";
  const { action, kept } = usePageWithoutStep();
  // Closes once its relaunch is answered: the page then shows the new stage, or the refusal above.
  useEffect(() => {
    if (!submitting) setOpened(false);
  }, [submitting]);
  return (
    <>
      <Form method="post" action={action} id={RELAUNCH_FORM_ID} preventScrollReset hidden />
      <Form method="get" preventScrollReset>
        {kept.map(([name, value]) => (
          <input key={`${name}=${value}`} type="hidden" name={name} value={value} />
        ))}
        <input type="hidden" name={CONFIRM_PARAM} value="relaunch" />
        <Restricted allowed={canDeploy}>
          <Button
            type="submit"
            loading={submitting}
            onClick={(event) => {
              event.preventDefault();
              setOpened(true);
            }}
          >
            Relaunch
          </Button>
        </Restricted>
      </Form>
      <ConfirmDialog
        opened={opened}
        onClose={() => setOpened(false)}
        title="Relaunch service"
        formId={RELAUNCH_FORM_ID}
        intent="relaunch"
        confirmLabel="Relaunch"
        busy={submitting}
      >
        {relaunchQuestion(serviceName)}
      </ConfirmDialog>
    </>
  );
}

/** Relaunch's confirmation step where the dialog cannot open (no JavaScript): shown while the address asks for it. */
function RelaunchStep({ serviceName }: { serviceName: string }) {
  const { asked, action, back } = usePageWithoutStep();
  const canDeploy = useCanInCurrentEnvironment("services.deploy");
  if (asked !== "relaunch" || !canDeploy) return null;
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="relaunch-step-title">
      <Form method="post" action={action} preventScrollReset>
        <Stack gap="sm">
          <Title order={3} size="h4" id="relaunch-step-title">
            Relaunch service
          </Title>
          <Text>{relaunchQuestion(serviceName)}</Text>
          <Group gap="sm">
            <Button type="submit" name="intent" value="relaunch">
              Relaunch
            </Button>
            <Button component={Link} to={back} variant="secondary">
              Cancel
            </Button>
          </Group>
        </Stack>
      </Form>
    </Paper>
  );
}

/** "Delete": a dialog that says what goes and what is kept, and deletes only once the service's name is typed. */
function DeleteServiceButton({
  service,
  deletion,
  actionData,
  allowed,
}: {
  service: HeaderService;
  deletion: Deletion;
  actionData: ServiceActionData | undefined;
  allowed: boolean;
}) {
  const answer = actionData?.form === "delete" ? actionData : undefined;
  return (
    <ConfirmByNameDialog title="Delete service" allowed={allowed} defaultOpened={answer !== undefined}>
      {(close) => (
        <DeleteServiceForm service={service} deletion={deletion} actionData={answer} onCancel={close} />
      )}
    </ConfirmByNameDialog>
  );
}

function DeleteServiceForm({
  service,
  deletion,
  actionData,
  onCancel,
}: {
  service: HeaderService;
  deletion: Deletion;
  actionData: ServiceActionData | undefined;
  onCancel: () => void;
}) {
  const serviceName = service.name;
  const { destroyed, kept } = deletion;
  const navigation = useNavigation();
  return (
    <ConfirmByNameForm
      Form={Form}
      id="delete-service"
      name={serviceName}
      schema={deleteServiceSchema(serviceName)}
      intent="delete"
      submitLabel="Delete service"
      lastResult={actionData?.result}
      submitting={navigation.state !== "idle" && navigation.formData?.get("intent") === "delete"}
      onCancel={onCancel}
      hiddenFields={<input type="hidden" name="serviceName" value={serviceName} />}
      description={
        <>
          This deletes <strong>{serviceName}</strong> and the cloud resources it runs on. It cannot be undone.
        </>
      }
      notice={
        destroyed ? (
          <Text size="sm" data-testid="delete-service-consequences">
            {destroyed} {kept}
          </Text>
        ) : null
      }
      formErrors={actionData?.error ? [actionData.error] : undefined}
    />
  );
}
