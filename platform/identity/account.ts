import { randomUUID } from "node:crypto";
import { asc, eq, sql } from "drizzle-orm";
import { ORGANIZATIONS_CLAIM, type OrganizationClaim } from "#contract/identity";
import type { Database } from "../db/index";
import { memberships, organizations, users } from "../db/schema";
import { hashPassword, verifyPassword } from "./passwords";

/** The claims the identity provider states about a user, read fresh from the database for every token. */
export type ProfileClaims = {
  sub: string;
  name: string;
  email: string;
  picture?: string;
  [ORGANIZATIONS_CLAIM]: OrganizationClaim[];
};

/** Which claims each OIDC scope releases (oidc-provider's `claims` setting and /userinfo share it). */
export const claimsByScope = {
  openid: ["sub", ORGANIZATIONS_CLAIM],
  profile: ["name", "picture"],
  email: ["email"],
} as const satisfies Record<string, readonly (keyof ProfileClaims)[]>;

export async function findProfileClaims(db: Database, userId: string): Promise<ProfileClaims | undefined> {
  const [user] = await db.select().from(users).where(eq(users.id, userId)).limit(1);
  if (!user) return undefined;
  const rows = await db
    .select({
      id: organizations.id,
      name: organizations.name,
      displayName: organizations.displayName,
      tenantId: organizations.tenantId,
    })
    .from(memberships)
    .innerJoin(organizations, eq(memberships.organizationId, organizations.id))
    .where(eq(memberships.userId, userId))
    .orderBy(asc(organizations.displayName), asc(organizations.id));
  return {
    sub: user.id,
    name: user.name,
    email: user.email,
    ...(user.picture ? { picture: user.picture } : {}),
    [ORGANIZATIONS_CLAIM]: rows.map((row) => ({
      id: row.id,
      name: row.name,
      display_name: row.displayName,
      metadata: { tenant_id: row.tenantId },
    })),
  };
}

/** The subset of the profile that the granted scopes release, as /userinfo returns it. */
export function claimsForScopes(profile: ProfileClaims, scopes: ReadonlySet<string>): Partial<ProfileClaims> {
  const released: Partial<ProfileClaims> = {};
  for (const [scope, claims] of Object.entries(claimsByScope)) {
    if (!scopes.has(scope)) continue;
    for (const claim of claims) {
      if (profile[claim] !== undefined) Object.assign(released, { [claim]: profile[claim] });
    }
  }
  return released;
}

/** How every e-mail address is compared and stored: sign-in, its attempt limits and sign-up agree. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

async function findUserByEmail(db: Database, normalizedEmail: string) {
  const [user] = await db
    .select({ id: users.id, passwordHash: users.passwordHash })
    .from(users)
    .where(eq(sql`lower(${users.email})`, normalizedEmail))
    .limit(1);
  return user;
}

/**
 * Creates a user with a password (hashed with scrypt); resolves to the new id, or undefined when the address,
 * compared as sign-in compares it, already has an account.
 */
export async function createAccount(
  db: Database,
  { name, email, password }: { name: string; email: string; password: string },
): Promise<string | undefined> {
  const normalized = normalizeEmail(email);
  if (await findUserByEmail(db, normalized)) return undefined;
  const [created] = await db
    .insert(users)
    .values({
      id: `user_${randomUUID()}`,
      name,
      email: normalized,
      passwordHash: await hashPassword(password),
    })
    // Two sign-ups with one address at once: the second finds the first here.
    .onConflictDoNothing({ target: users.email })
    .returning({ id: users.id });
  return created?.id;
}

let unknownUserHash: Promise<string> | undefined;

/**
 * Checks an e-mail address and password; resolves to the user's id, or undefined when either is wrong.
 * An unknown address still costs one password verification, so response times do not reveal which
 * addresses have accounts.
 */
export async function authenticateUser(
  db: Database,
  email: string,
  password: string,
): Promise<string | undefined> {
  const normalized = normalizeEmail(email);
  const user = normalized ? await findUserByEmail(db, normalized) : undefined;
  unknownUserHash ??= hashPassword("not the password of any account");
  const valid = await verifyPassword(password, user?.passwordHash ?? (await unknownUserHash));
  return user && valid ? user.id : undefined;
}
