import { Alert, Text } from "@mantine/core";
import { isBusyStage, typesWithoutEndpoint, type ServiceType } from "#contract/service-catalogue";
import { type Resource } from "#contract/services";
import { formatDuration } from "./format";

const withoutEndpoint: Record<(typeof typesWithoutEndpoint)[number], string> = {
  network: "none (a network has no endpoint)",
  tls: "none (a TLS certificate has no endpoint)",
};

const hasNoEndpoint = (type: ServiceType): type is keyof typeof withoutEndpoint =>
  (typesWithoutEndpoint as readonly ServiceType[]).includes(type);

/** Where clients reach the service; a type nothing connects to says so instead of "not deployed yet". */
export function EndpointText({ service }: { service: Pick<Resource, "serviceType" | "stage" | "endpoint"> }) {
  const text =
    service.endpoint ??
    (hasNoEndpoint(service.serviceType) ? withoutEndpoint[service.serviceType] : "not deployed yet");
  return <span data-testid="endpoint-text">{text}</span>;
}

/**
 * Why a failed service failed: its deployment, or a change made outside the console that the periodic check
 * found (the message says what drifted and what to do); `children` add actions (a ticket form).
 */
export function FailureNotice({
  service,
  children,
}: {
  service: Pick<Resource, "stage" | "message" | "driftedAt">;
  children?: React.ReactNode;
}) {
  if (service.stage !== "STAGE_FAILED" || !service.message) return null;
  return (
    <Alert
      color="red"
      title={service.driftedAt ? "Changed outside the console" : "Deployment failed"}
      data-testid="service-failure"
    >
      {service.message}
      {children}
    </Alert>
  );
}

/** "09:41 UTC": when a wait began (waits last minutes, rarely past a day; the page shows one zone for everyone). */
const clockTime = (iso: string) => `${new Date(iso).toISOString().slice(11, 16)} UTC`;

/**
 * While the service is busy, what its running step waits for, since when and for how long ("Waiting for the DB
 * instance orders-db to become available · since 09:41 UTC (4 min)"), so a cloud that is slow or silent for
 * minutes reads as a wait, not as a page that stopped. `now` comes from the loader, the same on server and client.
 */
export function ProgressNotice({
  service,
  now,
}: {
  service: Pick<Resource, "stage" | "progress">;
  now: string;
}) {
  const { progress } = service;
  if (!isBusyStage(service.stage) || !progress) return null;
  const waited = formatDuration(progress.since, now);
  return (
    <Text size="sm" c="dimmed" data-testid="service-progress" aria-live="polite">
      {`${progress.step} · since ${clockTime(progress.since)}${waited ? ` (${waited})` : ""}`}
    </Text>
  );
}
