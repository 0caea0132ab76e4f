import {
  cloudProviderOfKind,
  connectionKindDefinitions,
  connectionPages,
  connectionStatusLabels,
  type Connection,
} from "#contract/connections";
import type { ObservabilityProvider } from "#contract/services";
import { agoLabel } from "./catalogue";

// Shaped on the server: the environment pages show connections without downloading their catalogue (and zod).

/** A connection as another page links to it: its name, kind and status in words, and its address. */
export function connectionLink(connection: Pick<Connection, "id" | "kind" | "name" | "status">) {
  return {
    name: connection.name,
    kind: connectionKindDefinitions[connection.kind].label,
    status: connectionStatusLabels[connection.status],
    href: connectionPages.view(connection.kind, connection.id),
  };
}

/**
 * The account a new environment or fastboot is offered first (issue 26): a verified container host, where
 * services run for real on the engine; none (the simulated cloud) without one.
 */
export function defaultCloudAccountOf(connections: Connection[]): string | undefined {
  return connections.find(
    (connection) => connection.kind === "CONTAINER_HOST" && connection.status === "VERIFIED",
  )?.id;
}

/** The cloud accounts an environment can run in, each with its provider so a form lists the chosen one's. */
export function cloudAccountChoices(connections: Connection[]) {
  return connections.flatMap((connection) => {
    const provider = cloudProviderOfKind[connection.kind];
    if (!provider) return [];
    const status = connectionStatusLabels[connection.status].toLowerCase();
    return [{ value: connection.id, label: `${connection.name} (${status})`, provider }];
  });
}

/** The observability connections not linked to the environment yet. */
export function observabilityChoices(connections: Connection[], linked: ReadonlySet<string>) {
  return connections
    .filter((connection) => connection.category === "observability" && !linked.has(connection.id))
    .map((connection) => ({
      value: connection.id,
      label: `${connection.name} (${connectionKindDefinitions[connection.kind].label})`,
    }));
}

type LinkedProvider = Pick<
  ObservabilityProvider,
  "id" | "connectionId" | "connectionName" | "connectionKind" | "lastForwardedAt" | "lastForwardError"
>;

/** An environment's observability links: each connection, and how its last forwarding went (relative to `now`). */
export function observabilityLinks(providers: LinkedProvider[], now: Date) {
  return providers.map((provider) => ({
    id: provider.id,
    name: provider.connectionName,
    kind: connectionKindDefinitions[provider.connectionKind].label,
    href: connectionPages.view(provider.connectionKind, provider.connectionId),
    lastForwarded: provider.lastForwardedAt
      ? `Last forwarded ${agoLabel(provider.lastForwardedAt, now).toLowerCase()}`
      : "Not forwarded yet",
    lastForwardError: provider.lastForwardError,
  }));
}

/** "Open in Datadog (name)": each linked provider's view of the environment's metrics. */
export function dashboardLinks(
  providers: Pick<ObservabilityProvider, "connectionName" | "connectionKind" | "dashboardUrl">[],
) {
  return providers.map((provider) => ({
    label: `Open in ${connectionKindDefinitions[provider.connectionKind].label} (${provider.connectionName})`,
    url: provider.dashboardUrl,
  }));
}
