import path from "node:path";

/**
 * The unix sockets a tenant's container host connection may name (issue 26). A container engine's socket gives
 * whoever opens it control of this machine (it starts privileged containers, mounts the host's files), so on a
 * platform several organizations share, a tenant may name only the sockets the operator lists in
 * CONTAINER_SOCKETS: none unless listed, as OUTBOUND_ALLOW does for internal addresses (platform/lib/egress.ts).
 * A tcp or https Docker host goes through the egress policy instead.
 */

let listed: readonly string[] = [];

/** CONTAINER_SOCKETS read: absolute paths, comma-separated; `problems` names each entry that is not one. */
export function parseContainerSockets(value: string): { sockets: string[]; problems: string[] } {
  const entries = value
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
  return {
    sockets: entries.filter((entry) => path.isAbsolute(entry)).map((entry) => path.resolve(entry)),
    problems: entries
      .filter((entry) => !path.isAbsolute(entry))
      .map((entry) => `${entry} is not an absolute socket path (such as /var/run/docker.sock)`),
  };
}

/** Sets CONTAINER_SOCKETS: the composition root once at start; tests that open a socket list theirs. */
export function setContainerSockets(sockets: readonly string[]): void {
  listed = sockets.map((socket) => path.resolve(socket));
}

/** A socket the operator has not listed; `message` says why and what to do, for the user. */
export class ContainerSocketRefusedError extends Error {
  readonly code = "ESOCKETREFUSED";
  constructor(message: string) {
    super(message);
    this.name = "ContainerSocketRefusedError";
  }
}

/** `socketPath` normalized when the operator listed it; throws ContainerSocketRefusedError otherwise. */
export function checkedContainerSocket(socketPath: string): string {
  const resolved = path.resolve(socketPath);
  if (listed.includes(resolved)) return resolved;
  throw new ContainerSocketRefusedError(
    `The platform does not open ${socketPath} for a connection: a container engine's socket controls this ` +
      `machine, so only the sockets the operator lists in CONTAINER_SOCKETS may be named ` +
      `(${listed.length ? `listed: ${listed.join(", ")}` : "none is listed"}).`,
  );
}
