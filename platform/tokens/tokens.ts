import { and, asc, desc, eq, isNull } from "drizzle-orm";
import type { ApiToken, CreatedApiToken } from "#contract/api-tokens";
import { permissionSchema, type Permission } from "#contract/permissions";
import type { Database } from "../db/index";
import { apiTokens, organizations, serviceAccounts, users } from "../db/schema";
import { newTokenValue, tokenHashOf, tokenHintOf } from "./token-values";

const DAY_MS = 24 * 60 * 60 * 1000;

type TokenRow = typeof apiTokens.$inferSelect;

export function tokenView(row: TokenRow): ApiToken {
  return {
    id: row.id,
    name: row.name,
    hint: row.hint,
    permissions: row.permissions
      ? row.permissions.filter((p) => permissionSchema.safeParse(p).success)
      : null,
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    lastUsedAddress: row.lastUsedAddress,
  } as ApiToken;
}

/** Issues a token for `userId` (a member, or a service account's user); the value is in the answer only. */
export async function issueToken(
  db: Database,
  {
    organizationId,
    userId,
    name,
    expiresInDays,
    permissions,
    createdBy,
    now,
  }: {
    organizationId: string;
    userId: string;
    name: string;
    expiresInDays: number;
    permissions: Permission[] | null;
    createdBy: string;
    now: Date;
  },
): Promise<CreatedApiToken> {
  const value = newTokenValue();
  const [row] = await db
    .insert(apiTokens)
    .values({
      organizationId,
      userId,
      name,
      tokenHash: tokenHashOf(value),
      hint: tokenHintOf(value),
      permissions: permissions ? [...new Set(permissions)] : null,
      createdBy,
      createdAt: now,
      expiresAt: new Date(now.getTime() + expiresInDays * DAY_MS),
    })
    .returning();
  if (!row) throw new Error("api token was not created");
  return { token: tokenView(row), value };
}

/** The live (unrevoked) tokens of one holder in the organization, newest first; expired ones stay listed. */
export async function listTokens(db: Database, organizationId: string, userId: string): Promise<ApiToken[]> {
  const rows = await db
    .select()
    .from(apiTokens)
    .where(
      and(
        eq(apiTokens.organizationId, organizationId),
        eq(apiTokens.userId, userId),
        isNull(apiTokens.revokedAt),
      ),
    )
    .orderBy(desc(apiTokens.createdAt), asc(apiTokens.name));
  return rows.map(tokenView);
}

type HeldToken = { organizationId: string; userId: string; tokenId: string; now: Date };

/** Revokes one of a holder's live tokens: the row as it was, or undefined when it has no such live token. */
async function revokeLive(db: Database, { organizationId, userId, tokenId, now }: HeldToken) {
  const [revoked] = await db
    .update(apiTokens)
    .set({ revokedAt: now })
    .where(
      and(
        eq(apiTokens.id, tokenId),
        eq(apiTokens.organizationId, organizationId),
        eq(apiTokens.userId, userId),
        isNull(apiTokens.revokedAt),
      ),
    )
    .returning();
  return revoked;
}

/** Revokes one of a holder's tokens; resolves false when it has no such live token. */
export async function revokeToken(db: Database, token: HeldToken): Promise<boolean> {
  return Boolean(await revokeLive(db, token));
}

/**
 * Regenerates one of a holder's live (unrevoked, possibly expired) tokens: revokes it and issues a new secret with
 * its name and permissions and a new expiry, in one change, so the old secret is refused from its next request and
 * nothing is left half done. Null when the holder has no such live token. Run it in a transaction.
 */
export async function regenerateToken(
  tx: Database,
  { expiresInDays, createdBy, ...token }: HeldToken & { expiresInDays: number; createdBy: string },
): Promise<CreatedApiToken | null> {
  const old = await revokeLive(tx, token);
  if (!old) return null;
  return issueToken(tx, {
    organizationId: token.organizationId,
    userId: token.userId,
    name: old.name,
    expiresInDays,
    permissions: old.permissions as Permission[] | null,
    createdBy,
    now: token.now,
  });
}

/** A presented token as stored, with its holder and organization; null when no token has that hash. */
export type PresentedToken = {
  row: TokenRow;
  user: { id: string; email: string; name: string };
  organization: { tenantId: string; name: string };
  serviceAccount: boolean;
};

export async function findPresentedToken(db: Database, value: string): Promise<PresentedToken | null> {
  const [found] = await db
    .select({
      row: apiTokens,
      user: { id: users.id, email: users.email, name: users.name },
      organization: { tenantId: organizations.tenantId, name: organizations.name },
      serviceAccount: serviceAccounts.userId,
    })
    .from(apiTokens)
    .innerJoin(users, eq(users.id, apiTokens.userId))
    .innerJoin(organizations, eq(organizations.id, apiTokens.organizationId))
    .leftJoin(serviceAccounts, eq(serviceAccounts.userId, apiTokens.userId))
    .where(eq(apiTokens.tokenHash, tokenHashOf(value)));
  if (!found) return null;
  return { ...found, serviceAccount: found.serviceAccount !== null };
}
