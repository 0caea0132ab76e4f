import { Alert } from "@mantine/core";
import { typesWithoutEndpoint, type Resource, type ServiceType } from "#contract/services";

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
