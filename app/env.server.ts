import * as z from "zod";

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
  /** When set (console.example.com), organizations live on subdomains: acme-corp.console.example.com. */
  APP_BASE_DOMAIN: z
    .string()
    .regex(/^[a-z0-9.-]+$/i, "must be a bare domain such as console.example.com")
    .optional(),
  /** Where 'Schedule a quick call' on the pending-approval screen leads. */
  SCHEDULE_CALL_URL: z.url().default("https://cal.com/cloud-console/onboarding"),
  /** PostHog-compatible analytics host (e.g. https://eu.i.posthog.com); with ANALYTICS_KEY turns analytics on. */
  ANALYTICS_HOST: url.optional(),
  /** The analytics project's public key; it reaches the browser, so never a personal or secret key. */
  ANALYTICS_KEY: z.string().min(1).optional(),
  /** Which variant of an analytics flag payload applies here (SPEC §6, §7). */
  ANALYTICS_FLAG_VARIANT: z.enum(["prod", "dev"]).optional(),
  /** Where error reports are posted (Rollbar-compatible item endpoint); unset: errors go to the console only. */
  ERROR_REPORTING_URL: z.url().optional(),
  /** Client-side (post_client_item) token sent with each report; it reaches the browser, so never a server token. */
  ERROR_REPORTING_TOKEN: z.string().min(1).optional(),
  /** How often a page looks again while the platform works (SPEC's job polling: 5 s); tests shorten it. */
  POLL_INTERVAL_MS: z.coerce.number().int().min(100).max(300_000).default(5000),
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
  baseDomain?: string;
  scheduleCallUrl: string;
  /** null when analytics is off (ANALYTICS_HOST and ANALYTICS_KEY unset): every analytics call is a no-op. */
  analytics: { host: string; key: string; flagVariant: "prod" | "dev" } | null;
  /** endpoint null: errors are reported to the console only. */
  errorReporting: { endpoint: string | null; token: string | null };
  /** The busy poll interval the browser uses (POLL_INTERVAL_MS, SPEC's 5 s by default). */
  pollIntervalMs: number;
};

/** Validates the app's configuration; the error names every bad variable so start-up fails fast and clearly. */
export function parseAppEnv(source: Record<string, string | undefined>): AppEnv {
  const parsed = schema.safeParse(source);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
    throw new Error(`Invalid app configuration:\n  ${problems.join("\n  ")}`);
  }
  const value = parsed.data;
  if ((value.ANALYTICS_HOST === undefined) !== (value.ANALYTICS_KEY === undefined)) {
    throw new Error("Invalid app configuration:\n  ANALYTICS_HOST, ANALYTICS_KEY: set both or neither");
  }
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
    baseDomain: value.APP_BASE_DOMAIN,
    scheduleCallUrl: value.SCHEDULE_CALL_URL,
    analytics:
      value.ANALYTICS_HOST && value.ANALYTICS_KEY
        ? {
            host: value.ANALYTICS_HOST,
            key: value.ANALYTICS_KEY,
            flagVariant: value.ANALYTICS_FLAG_VARIANT ?? (value.NODE_ENV === "production" ? "prod" : "dev"),
          }
        : null,
    errorReporting: {
      endpoint: value.ERROR_REPORTING_URL ?? null,
      token: value.ERROR_REPORTING_TOKEN ?? null,
    },
    pollIntervalMs: value.POLL_INTERVAL_MS,
  };
}

let cached: AppEnv | undefined;

export function getEnv(): AppEnv {
  cached ??= parseAppEnv(process.env);
  return cached;
}
