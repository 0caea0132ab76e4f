import { and, eq, lt, type SQL } from "drizzle-orm";
import type { Adapter, AdapterConstructor, AdapterPayload } from "oidc-provider";
import type { Database } from "../db/index";
import { oidcPayloads } from "../db/schema";

/**
 * oidc-provider's storage (sessions, interactions, grants, codes, refresh tokens) in the `oidc_payloads` table,
 * so sign-ins survive a restart. One instance per model name; rows are keyed by (model, id).
 */
export function createPayloadAdapter(db: Database): AdapterConstructor {
  return class PayloadAdapter implements Adapter {
    constructor(private readonly model: string) {}

    async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
      const row = {
        payload,
        grantId: payload.grantId ?? null,
        userCode: payload.userCode ?? null,
        uid: payload.uid ?? null,
        expiresAt: expiresIn ? new Date(Date.now() + expiresIn * 1000) : null,
      };
      await db
        .insert(oidcPayloads)
        .values({ model: this.model, id, ...row })
        .onConflictDoUpdate({ target: [oidcPayloads.model, oidcPayloads.id], set: row });
    }

    find(id: string): Promise<AdapterPayload | undefined> {
      return this.findOne(eq(oidcPayloads.id, id));
    }

    findByUid(uid: string): Promise<AdapterPayload | undefined> {
      return this.findOne(eq(oidcPayloads.uid, uid));
    }

    findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
      return this.findOne(eq(oidcPayloads.userCode, userCode));
    }

    async consume(id: string): Promise<void> {
      await db
        .update(oidcPayloads)
        .set({ consumedAt: new Date() })
        .where(and(eq(oidcPayloads.model, this.model), eq(oidcPayloads.id, id)));
    }

    async destroy(id: string): Promise<void> {
      await db.delete(oidcPayloads).where(and(eq(oidcPayloads.model, this.model), eq(oidcPayloads.id, id)));
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      await db
        .delete(oidcPayloads)
        .where(and(eq(oidcPayloads.model, this.model), eq(oidcPayloads.grantId, grantId)));
    }

    private async findOne(condition: SQL): Promise<AdapterPayload | undefined> {
      const [row] = await db
        .select()
        .from(oidcPayloads)
        .where(and(eq(oidcPayloads.model, this.model), condition))
        .limit(1);
      // Expired rows linger until the next purge; to oidc-provider they no longer exist.
      if (!row || (row.expiresAt && row.expiresAt.getTime() <= Date.now())) return undefined;
      const payload = row.payload as AdapterPayload;
      return row.consumedAt ? { ...payload, consumed: Math.floor(row.consumedAt.getTime() / 1000) } : payload;
    }
  };
}

/** Deletes expired sessions, codes and tokens; oidc-provider never asks for them again. */
export async function purgeExpiredPayloads(db: Database, now = new Date()): Promise<void> {
  await db.delete(oidcPayloads).where(lt(oidcPayloads.expiresAt, now));
}

/** Ends a grant everywhere: the grant itself and every code and token issued under it (sign-out). */
export async function revokeGrant(db: Database, grantId: string): Promise<void> {
  await db.delete(oidcPayloads).where(eq(oidcPayloads.grantId, grantId));
  await db.delete(oidcPayloads).where(and(eq(oidcPayloads.model, "Grant"), eq(oidcPayloads.id, grantId)));
}
