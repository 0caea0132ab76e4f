import { randomUUID } from "node:crypto";
import type { ConnectionKind, NotificationRules } from "#contract/connections";
import { sealSecrets } from "../connections/records";
import type { Database } from "../db/index";
import { connections } from "../db/schema";
import type { SecretCipher } from "../lib/cipher";

/** A stored connection as the connections API stores one (secrets sealed together), for tests. */
export async function insertConnection(
  db: Database,
  secrets: SecretCipher,
  {
    organizationId,
    kind,
    method,
    fields = {},
    secretFields = {},
    notifications = null,
    name = `connection ${randomUUID().slice(0, 8)}`,
  }: {
    organizationId: string;
    kind: ConnectionKind;
    method: string;
    fields?: Record<string, string>;
    secretFields?: Record<string, string>;
    notifications?: NotificationRules | null;
    name?: string;
  },
) {
  const id = randomUUID();
  const [row] = await db
    .insert(connections)
    .values({
      id,
      organizationId,
      kind,
      name,
      method,
      fields,
      ...sealSecrets(secrets, id, secretFields),
      status: "VERIFIED",
      notifications,
    })
    .returning();
  if (!row) throw new Error("the connection was not stored");
  return row;
}
