import { eq } from "drizzle-orm";
import type { RoleName } from "#contract/identity";
import { hashPassword } from "../identity/passwords";
import type { Database } from "./index";
import { environments, memberships, organizations, roles, users } from "./schema";

export const roleCatalogue: { name: RoleName; description: string; canWrite: boolean }[] = [
  { name: "admin", description: "Manages the organization, its users and every resource", canWrite: true },
  { name: "developer", description: "Deploys and operates services", canWrite: true },
  { name: "read-only", description: "Sees everything, changes nothing", canWrite: false },
];

/** Roles are reference data: present in every database, demo or not. */
export async function ensureRoles(db: Database) {
  await db.insert(roles).values(roleCatalogue).onConflictDoNothing();
}

export const DEMO_PASSWORD = "password";

const demoOrganizations = [
  { id: "org_acme", name: "acme-corp", displayName: "Acme Corp", approved: true },
  { id: "org_globex", name: "globex", displayName: "Globex", approved: true },
  { id: "org_initech", name: "initech", displayName: "Initech", approved: false },
];

const demoUsers: { id: string; email: string; name: string; memberships: [string, RoleName][] }[] = [
  {
    id: "user_ada",
    email: "ada@example.com",
    name: "Ada Lovelace",
    memberships: [
      ["org_acme", "admin"],
      ["org_globex", "developer"],
    ],
  },
  { id: "user_bob", email: "bob@example.com", name: "Bob Stone", memberships: [["org_acme", "read-only"]] },
  {
    id: "user_carol",
    email: "carol@example.com",
    name: "Carol Baker",
    memberships: [["org_initech", "admin"]],
  },
  { id: "user_dave", email: "dave@example.com", name: "Dave Young", memberships: [] },
];

export const demoEnvironmentNames = ["production", "staging"];

/** Seeds the demo organizations and accounts once: a database that already has users is left alone. */
export async function seedDemoData(db: Database): Promise<boolean> {
  const existing = await db.select({ id: users.id }).from(users).limit(1);
  if (existing.length) return false;
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  await db.transaction(async (tx) => {
    await tx.insert(organizations).values(demoOrganizations);
    await tx
      .insert(users)
      .values(demoUsers.map(({ id, email, name }) => ({ id, email, name, passwordHash, picture: null })));
    await tx.insert(memberships).values(
      demoUsers.flatMap((user) =>
        user.memberships.map(([organizationId, roleName]) => ({
          userId: user.id,
          organizationId,
          roleName,
        })),
      ),
    );
    const [acme] = await tx.select().from(organizations).where(eq(organizations.id, "org_acme"));
    if (!acme) throw new Error("Acme Corp was not seeded");
    await tx
      .insert(environments)
      .values(demoEnvironmentNames.map((name) => ({ tenantId: acme.tenantId, name })));
  });
  return true;
}
