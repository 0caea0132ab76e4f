import { parse } from "dotenv";
import { environmentVariableNameSchema } from "#contract/environments";
import type { EnvFileEntry } from "./env-import";

export type RejectedEnvFileEntry = { name: string; reason: string };

/**
 * Reads a .env file the way `dotenv` does (comments, quotes, `export` prefixes; a later line wins over an
 * earlier one of the same name), then keeps the names the platform accepts and explains the others.
 */
export function parseEnvFile(content: string): { entries: EnvFileEntry[]; rejected: RejectedEnvFileEntry[] } {
  const entries: EnvFileEntry[] = [];
  const rejected: RejectedEnvFileEntry[] = [];
  for (const [name, value] of Object.entries(parse(content))) {
    const checked = environmentVariableNameSchema.safeParse(name);
    if (checked.success) entries.push({ name, value });
    else rejected.push({ name, reason: checked.error.issues[0]?.message ?? "Invalid name" });
  }
  return { entries, rejected };
}
