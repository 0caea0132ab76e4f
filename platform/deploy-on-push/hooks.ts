import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Database } from "../db/index";
import { deployHooks } from "../db/schema";
import type { SecretCipher } from "../lib/cipher";
import { newHookSecret } from "./signature";

export type DeployHookRow = typeof deployHooks.$inferSelect;

/** Binds a hook's sealed secret to it (additional authenticated data): copied to another row, it does not open. */
const secretContextOf = (hookId: string) => `deploy-hook:${hookId}`;

export function secretOf(cipher: SecretCipher, hook: DeployHookRow): string {
  return cipher.decrypt(hook.sealedSecret, secretContextOf(hook.id));
}

export async function hookOfResource(tx: Database, resourceId: string): Promise<DeployHookRow | undefined> {
  const [hook] = await tx.select().from(deployHooks).where(eq(deployHooks.resourceId, resourceId));
  return hook;
}

/** Makes the application's hook with a new secret, which is returned for the user to give GitHub once. */
export async function createHook(
  tx: Database,
  cipher: SecretCipher,
  { resourceId, enabled }: { resourceId: string; enabled: boolean },
  now: Date,
): Promise<{ hook: DeployHookRow; secret: string }> {
  const id = randomUUID();
  const secret = newHookSecret();
  const [hook] = await tx
    .insert(deployHooks)
    .values({
      id,
      resourceId,
      enabled,
      sealedSecret: cipher.encrypt(secret, secretContextOf(id)),
      secretCreatedAt: now,
      createdAt: now,
    })
    .returning();
  if (!hook) throw new Error("the deploy hook was not created");
  return { hook, secret };
}

/** A new secret for the hook; payloads signed with the old one are refused from now on. */
export async function rotateHookSecret(
  tx: Database,
  cipher: SecretCipher,
  hook: DeployHookRow,
  now: Date,
): Promise<{ hook: DeployHookRow; secret: string }> {
  const secret = newHookSecret();
  const [rotated] = await tx
    .update(deployHooks)
    .set({ sealedSecret: cipher.encrypt(secret, secretContextOf(hook.id)), secretCreatedAt: now })
    .where(eq(deployHooks.id, hook.id))
    .returning();
  if (!rotated) throw new Error("the deploy hook disappeared");
  return { hook: rotated, secret };
}
