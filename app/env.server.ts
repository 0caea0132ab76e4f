import { z } from "zod";

const url = z.url().transform((value) => value.replace(/\/+$/, ""));

const schema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  /** The app's public origin: the sign-in callback is `${APP_URL}/auth`. */
  APP_URL: url.default("http://localhost:3000"),
  /** Comma-separated; the first signs new cookies, the others still verify old ones (rotation). */
  SESSION_SECRET: z
    .string({ error: "is required (comma-separated secrets, each at least 32 characters)" })
    .transform((value) => value.split(",").map((secret) => secret.trim()))
    .pipe(z.array(z.string().min(32, "each secret must be at least 32 characters")).min(1)),
  /** Origin of the platform API; calls go to `${PLATFORM_API_URL}/api/...`. */
  PLATFORM_API_URL: url.default("http://localhost:4000"),
  /** Auth0 domain (`tenant.eu.auth0.com`, https implied) or the identity provider's origin with its scheme. */
  AUTH0_DOMAIN: z.string().min(1).default("http://localhost:4000"),
  AUTH0_CLIENT_ID: z.string().min(1).default("cloud-console"),
  AUTH0_CLIENT_SECRET: z.string({ error: "is required" }).min(1, "is required"),
  /** Audience of the platform API's access tokens; defaults to `${PLATFORM_API_URL}/api`. */
  AUTH0_AUDIENCE: z.string().min(1).optional(),
});

export type AppEnv = {
  production: boolean;
  appUrl: string;
  sessionSecrets: string[];
  platformApiUrl: string;
  /** The identity provider's issuer, with Auth0's trailing slash. */
  issuer: string;
  clientId: string;
  clientSecret: string;
  audience: string;
};

/** Validates the app's configuration; the error names every bad variable so start-up fails fast and clearly. */
export function parseAppEnv(source: Record<string, string | undefined>): AppEnv {
  const parsed = schema.safeParse(source);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
    throw new Error(`Invalid app configuration:\n  ${problems.join("\n  ")}`);
  }
  const value = parsed.data;
  const issuerOrigin = /^https?:\/\//.test(value.AUTH0_DOMAIN)
    ? value.AUTH0_DOMAIN
    : `https://${value.AUTH0_DOMAIN}`;
  return {
    production: value.NODE_ENV === "production",
    appUrl: value.APP_URL,
    sessionSecrets: value.SESSION_SECRET,
    platformApiUrl: value.PLATFORM_API_URL,
    issuer: `${issuerOrigin.replace(/\/+$/, "")}/`,
    clientId: value.AUTH0_CLIENT_ID,
    clientSecret: value.AUTH0_CLIENT_SECRET,
    audience: value.AUTH0_AUDIENCE ?? `${value.PLATFORM_API_URL}/api`,
  };
}

let cached: AppEnv | undefined;

export function getEnv(): AppEnv {
  cached ??= parseAppEnv(process.env);
  return cached;
}
