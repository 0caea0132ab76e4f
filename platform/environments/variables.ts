import { randomUUID } from "node:crypto";
import { asc, eq, sql } from "drizzle-orm";
import { SECRET_MASK, type EnvironmentVariable } from "#contract/environments";
import type { Database } from "../db/index";
import { environmentVariables } from "../db/schema";
import type { SecretCipher } from "../lib/cipher";

export type VariableRow = typeof environmentVariables.$inferSelect;

/** The additional authenticated data of a secret: it decrypts only in the row it was written for. */
function secretContext(environmentId: string, variableId: string): string {
  return `environment-variable:${environmentId}:${variableId}`;
}

/** The columns that hold a variable's value: plaintext for a plain variable, only ciphertext for a secret. */
export function storedValue(
  secrets: SecretCipher,
  {
    environmentId,
    variableId,
    value,
    secret,
  }: { environmentId: string; variableId: string; value: string; secret: boolean },
): { value: string | null; encryptedValue: string | null } {
  return secret
    ? { value: null, encryptedValue: secrets.encrypt(value, secretContext(environmentId, variableId)) }
    : { value, encryptedValue: null };
}

/** The plaintext of a variable; throws SecretDecryptionError when a secret cannot be decrypted. */
export function plaintextOf(secrets: SecretCipher, row: VariableRow): string {
  if (!row.secret) return row.value ?? "";
  return secrets.decrypt(row.encryptedValue ?? "", secretContext(row.environmentId, row.id));
}

/** The contract's view: secrets masked unless `reveal` names them (then decrypted). */
export function toVariable(
  secrets: SecretCipher,
  row: VariableRow,
  { reveal = false }: { reveal?: boolean } = {},
): EnvironmentVariable {
  return {
    id: row.id,
    name: row.name,
    value: row.secret && !reveal ? SECRET_MASK : plaintextOf(secrets, row),
    secret: row.secret,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export async function variablesOf(db: Database, environmentId: string): Promise<VariableRow[]> {
  return (
    db
      .select()
      .from(environmentVariables)
      .where(eq(environmentVariables.environmentId, environmentId))
      // Byte order, so PGlite and PostgreSQL servers with other default collations list names identically.
      .orderBy(asc(sql`${environmentVariables.name} collate "C"`))
  );
}

/**
 * Copies every variable of one environment into another (which has none) under new ids; secrets are decrypted
 * and sealed again for their new row. Throws SecretDecryptionError when a source secret cannot be read.
 */
export async function copyVariables(
  tx: Database,
  secrets: SecretCipher,
  {
    fromEnvironmentId,
    toEnvironmentId,
    now,
  }: { fromEnvironmentId: string; toEnvironmentId: string; now: Date },
): Promise<number> {
  const rows = await variablesOf(tx, fromEnvironmentId);
  if (!rows.length) return 0;
  await tx.insert(environmentVariables).values(
    rows.map((row) => {
      const id = randomUUID();
      return {
        id,
        environmentId: toEnvironmentId,
        name: row.name,
        secret: row.secret,
        ...storedValue(secrets, {
          environmentId: toEnvironmentId,
          variableId: id,
          value: plaintextOf(secrets, row),
          secret: row.secret,
        }),
        createdAt: now,
        updatedAt: now,
      };
    }),
  );
  return rows.length;
}
