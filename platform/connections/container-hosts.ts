import { eq } from "drizzle-orm";
import type { Database } from "../db/index";
import { connections } from "../db/schema";
import type { EnvironmentRow } from "../environments/records";
import type { SecretCipher } from "../lib/cipher";
import { credentialsOf, type ConnectionRow } from "./records";
import { containerHostTls } from "./providers/container-host";

/**
 * The container host an environment runs on (issue 26, docs/decisions/058): its CONTAINER_HOST connection and the
 * engine's DOCKER_HOST (a plain field, nothing sealed); null when the environment runs elsewhere.
 */
export async function containerHostOf(
  tx: Database,
  environment: EnvironmentRow,
): Promise<{ connection: ConnectionRow; dockerHost: string } | null> {
  if (!environment.cloudConnectionId) return null;
  const [connection] = await tx
    .select()
    .from(connections)
    .where(eq(connections.id, environment.cloudConnectionId));
  if (connection?.kind !== "CONTAINER_HOST") return null;
  const dockerHost = (connection.fields as Record<string, string | undefined>).DOCKER_HOST ?? "";
  return { connection, dockerHost };
}

/** The certificates of the host `connection` names over TLS (its key opened), undefined for other hosts. */
export const containerHostTlsOf = (secrets: SecretCipher, connection: ConnectionRow) =>
  containerHostTls(credentialsOf(secrets, connection));
