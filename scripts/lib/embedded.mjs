import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

/** External mode: the app talks to another platform API and to real Auth0, so only the app runs here. */
export function isExternalMode(env = process.env) {
  return Boolean(env.PLATFORM_API_URL && env.AUTH0_DOMAIN);
}

/** Secrets the embedded platform and the app share, generated once and kept in the data dir (mode 0600). */
function embeddedSecrets(dataDir) {
  const file = path.join(dataDir, "secrets.json");
  if (existsSync(file)) return JSON.parse(readFileSync(file, "utf8"));
  const secrets = {
    sessionSecret: randomBytes(32).toString("base64url"),
    clientSecret: randomBytes(32).toString("base64url"),
  };
  writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  return secrets;
}

/**
 * The environment of each process in embedded mode. Only this script knows both sides: it points the app at
 * the embedded platform and gives both the same OAuth client secret.
 */
export function embeddedEnvironments(env = process.env) {
  const dataDir = path.resolve(env.DATA_DIR ?? "./data");
  mkdirSync(dataDir, { recursive: true });
  const secrets = embeddedSecrets(dataDir);
  const appPort = env.PORT ?? "3000";
  const platformPort = env.PLATFORM_PORT ?? "4000";
  const platformUrl = (env.PLATFORM_PUBLIC_URL ?? `http://localhost:${platformPort}`).replace(/\/+$/, "");
  const appUrl = (env.APP_URL ?? `http://localhost:${appPort}`).replace(/\/+$/, "");
  const clientSecret = env.AUTH0_CLIENT_SECRET ?? secrets.clientSecret;
  const platform = {
    ...env,
    DATA_DIR: dataDir,
    PLATFORM_PORT: platformPort,
    PLATFORM_PUBLIC_URL: platformUrl,
    APP_URL: appUrl,
    AUTH0_CLIENT_SECRET: clientSecret,
  };
  const app = {
    ...env,
    PORT: appPort,
    APP_URL: appUrl,
    SESSION_SECRET: env.SESSION_SECRET ?? secrets.sessionSecret,
    PLATFORM_API_URL: platformUrl,
    AUTH0_DOMAIN: platformUrl,
    AUTH0_CLIENT_SECRET: clientSecret,
  };
  return { platform, app, platformUrl, appUrl };
}
