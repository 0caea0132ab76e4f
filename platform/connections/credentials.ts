import type { ConnectionKind } from "#contract/connections";
import type { connections } from "../db/schema";
import type { SecretCipher } from "../secrets/cipher";
import type { Credentials } from "./providers";

export type ConnectionRow = typeof connections.$inferSelect;

/** The additional data a connection's sealed secrets are bound to: a copy in another row does not open. */
export const connectionSecretsContextOf = (connectionId: string) => `connection:${connectionId}`;

/**
 * A stored connection as its provider needs it: plain fields as they are, secrets unsealed. Throws
 * SecretDecryptionError when the secrets do not open (a lost key): callers say so in plain words.
 */
export function credentialsOf(row: ConnectionRow, secrets: SecretCipher): Credentials {
  const unsealed = row.sealedSecrets
    ? (JSON.parse(secrets.decrypt(row.sealedSecrets, connectionSecretsContextOf(row.id))) as Record<
        string,
        string
      >)
    : {};
  return {
    id: row.id,
    kind: row.kind as ConnectionKind,
    method: row.method,
    fields: row.fields,
    secrets: unsealed,
  };
}
