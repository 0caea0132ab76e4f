import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import { homedir } from "node:os";
import path from "node:path";
import * as z from "zod";

/** The process's environment variables (only the CLOUD_CONSOLE_* ones, XDG_CONFIG_HOME and HOME are read). */
export type Environment = Record<string, string | undefined>;

/** Where the platform runs when nothing says otherwise: the embedded platform's default port on this machine. */
export const DEFAULT_PLATFORM_URL = "http://localhost:4000";

const savedLoginSchema = z.object({
  url: z.string().optional(),
  token: z.string().optional(),
  organization: z.string().optional(),
});
export type SavedLogin = z.infer<typeof savedLoginSchema>;

/** $XDG_CONFIG_HOME/cloud-console/config.json, else ~/.config/cloud-console/config.json. */
export function configFileOf(env: Environment): string {
  const base = env.XDG_CONFIG_HOME || path.join(env.HOME || homedir(), ".config");
  return path.join(base, "cloud-console", "config.json");
}

export async function readSavedLogin(file: string): Promise<SavedLogin> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch {
    return {};
  }
  const parsed = savedLoginSchema.safeParse(JSON.parse(text));
  return parsed.success ? parsed.data : {};
}

/**
 * The token is a credential: the file is the owner's alone (0600, in a 0700 folder), also when it existed before
 * with wider permissions.
 */
export async function saveLogin(file: string, login: SavedLogin): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  await writeFile(file, `${JSON.stringify(login, null, 2)}\n`, { mode: 0o600 });
  await chmod(file, 0o600);
}

/** What a command runs with: flags first, then CLOUD_CONSOLE_* variables, then the saved login. */
export type Connection = { url: string; token?: string; organization?: string };

export function connectionOf(
  flags: { url?: string; token?: string; organization?: string },
  env: Environment,
  saved: SavedLogin,
): Connection {
  return {
    url: (flags.url ?? env.CLOUD_CONSOLE_URL ?? saved.url ?? DEFAULT_PLATFORM_URL).replace(/\/+$/, ""),
    token: flags.token ?? env.CLOUD_CONSOLE_TOKEN ?? saved.token,
    organization: flags.organization ?? env.CLOUD_CONSOLE_ORGANIZATION ?? saved.organization,
  };
}
