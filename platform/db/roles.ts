import { builtInRoles, roleNames } from "#contract/permissions";
import type { Database } from "./index";
import { roles } from "./schema";

export const roleCatalogue = roleNames.map((name) => ({ name, description: builtInRoles[name].description }));

/** Roles are reference data: present in every database, demo or not. */
export async function ensureRoles(db: Database) {
  await db.insert(roles).values(roleCatalogue).onConflictDoNothing();
}
