import {
  cloudProviderOfKind,
  connectionKindDefinitions,
  connectionPages,
  connectionStatusLabels,
  type Connection,
} from "#contract/connections";

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
