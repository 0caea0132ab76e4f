import { and, eq } from "drizzle-orm";
import type { Stage } from "#contract/stages";
import type { Database } from "../db/index";
import { resources } from "../db/schema";
import type { SecretCipher } from "../lib/cipher";
import { attributesContextOf } from "./records";

/**
 * The attributes of the environment's services by name, as a deployment step reads the ones an application's
 * `${{service.attribute}}` variables reference: the service's plain outputs and its sealed secrets, opened (and
 * marked secret), with its stage. Null when the environment has no service of that name; no attributes while it
 * has answered none (not deployed yet). Read outside the step's transaction, when the driver asks.
 */
export function environmentAttributes(db: Database, secrets: SecretCipher, environmentId: string) {
  return async (
    name: string,
  ): Promise<{ attributes: Record<string, { value: string; secret: boolean }>; stage: Stage } | null> => {
    const [row] = await db
      .select({
        id: resources.id,
        stage: resources.stage,
        outputs: resources.cloudOutputs,
        sealed: resources.sealedAttributes,
      })
      .from(resources)
      .where(and(eq(resources.environmentId, environmentId), eq(resources.name, name)));
    if (!row) return null;
    const opened = row.sealed
      ? (JSON.parse(secrets.decrypt(row.sealed, attributesContextOf(row.id))) as Record<string, string>)
      : {};
    const attributes: Record<string, { value: string; secret: boolean }> = {};
    for (const [key, value] of Object.entries(row.outputs ?? {})) attributes[key] = { value, secret: false };
    for (const [key, value] of Object.entries(opened)) attributes[key] = { value, secret: true };
    return { attributes, stage: row.stage as Stage };
  };
}
