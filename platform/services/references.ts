import { asc, eq } from "drizzle-orm";
import type { Database } from "../db/index";
import { resources } from "../db/schema";
import { settingsOf } from "./records";

/** Whether `value` references the environment variable `name` as `${NAME}`. */
export const referencesVariable = (value: string, name: string) => value.includes(`\${${name}}`);

/** The environment's services whose variables (settings.envvars values) reference `${name}`, by name. */
export async function servicesReferencing(db: Database, environmentId: string, name: string) {
  const rows = await db
    .select()
    .from(resources)
    .where(eq(resources.environmentId, environmentId))
    .orderBy(asc(resources.name));
  return rows
    .filter((row) => settingsOf(row).envvars.some((entry) => referencesVariable(entry.value, name)))
    .map((row) => ({ id: row.id, name: row.name, serviceType: row.serviceType }));
}
