import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import type { RoleName } from "#contract/identity";
import { storedValue } from "../environments/variables";
import { hashPassword } from "../identity/passwords";
import type { SecretCipher } from "../secrets/cipher";
import type { Database } from "./index";
import { environments, environmentVariables, memberships, organizations, roles, users } from "./schema";

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

/** Acme Corp's environments, in AWS us-east-1, each with a few variables and one secret. */
const demoEnvironments: { name: string; variables: { name: string; value: string; secret: boolean }[] }[] = [
  {
    name: "production",
    variables: [
      { name: "NODE_ENV", value: "production", secret: false },
      { name: "LOG_LEVEL", value: "info", secret: false },
      { name: "DB_PASSWORD", value: "acme-production-db-password", secret: true },
    ],
  },
  {
    name: "staging",
    variables: [
      { name: "NODE_ENV", value: "staging", secret: false },
      { name: "LOG_LEVEL", value: "debug", secret: false },
      { name: "DB_PASSWORD", value: "acme-staging-db-password", secret: true },
    ],
  },
];

/** Seeds the demo organizations and accounts once: a database that already has users is left alone. */
export async function seedDemoData(db: Database, { secrets }: { secrets: SecretCipher }): Promise<boolean> {
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
    for (const { name, variables } of demoEnvironments) {
      const [environment] = await tx
        .insert(environments)
        .values({ tenantId: acme.tenantId, name, cloudProvider: "AWS", region: "us-east-1" })
        .returning();
      if (!environment) throw new Error(`${name} was not seeded`);
      await tx.insert(environmentVariables).values(
        variables.map(({ name: variableName, value, secret }) => {
          const id = randomUUID();
          return {
            id,
            environmentId: environment.id,
            name: variableName,
            secret,
            ...storedValue(secrets, { environmentId: environment.id, variableId: id, value, secret }),
          };
        }),
      );
    }
  });
  return true;
}
