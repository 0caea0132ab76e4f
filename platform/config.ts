import path from "node:path";
import { z } from "zod";

const url = z.url().transform((value) => value.replace(/\/+$/, ""));

const schema = z.object({
  PLATFORM_PORT: z.coerce.number().int().positive().default(4000),
  /** The origin browsers and the app use to reach the platform (identity provider at its root, API under /api). */
  PLATFORM_PUBLIC_URL: url.optional(),
  /** Where PGlite keeps its data, and the identity provider its signing keys. */
  DATA_DIR: z.string().min(1).default("./data"),
  /** PostgreSQL connection string; PGlite in DATA_DIR is used when unset. */
  DATABASE_URL: z.string().min(1).optional(),
  /** The app's origin, allowed as redirect and logout target of the embedded client. */
  APP_URL: url.default("http://localhost:3000"),
  AUTH0_CLIENT_ID: z.string().min(1).default("cloud-console"),
  /** Secret of the embedded OAuth client; the start script generates one in DATA_DIR. */
  AUTH0_CLIENT_SECRET: z.string().min(16, "must be at least 16 characters"),
  /** Audience of the platform API's access tokens; defaults to `${PLATFORM_PUBLIC_URL}/api`. */
  AUTH0_AUDIENCE: z.string().min(1).optional(),
  /** When true, organizations created through POST /tenant wait for approval. */
  TENANT_APPROVAL_REQUIRED: z
    .enum(["true", "false"])
    .default("false")
    .transform((value) => value === "true"),
  /** Lifetime of the access tokens the identity provider issues, in seconds. */
  ACCESS_TOKEN_TTL_SECONDS: z.coerce.number().int().min(30).default(3600),
  /** Seed the demo organizations and accounts into an empty database. */
  SEED_DEMO_DATA: z
    .enum(["true", "false"])
    .default("true")
    .transform((value) => value === "true"),
});

export type PlatformConfig = {
  port: number;
  publicUrl: string;
  issuer: string;
  audience: string;
  dataDir: string;
  databaseUrl?: string;
  appUrl: string;
  clientId: string;
  clientSecret: string;
  tenantApprovalRequired: boolean;
  seedDemoData: boolean;
  accessTokenTtlSeconds: number;
};

/** Reads the platform's configuration from the environment; throws naming every bad variable. */
export function loadPlatformConfig(env: Record<string, string | undefined> = process.env): PlatformConfig {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
    throw new Error(`Invalid platform configuration:\n  ${problems.join("\n  ")}`);
  }
  const value = parsed.data;
  const publicUrl = value.PLATFORM_PUBLIC_URL ?? `http://localhost:${value.PLATFORM_PORT}`;
  return {
    port: value.PLATFORM_PORT,
    publicUrl,
    issuer: `${publicUrl}/`,
    audience: value.AUTH0_AUDIENCE ?? `${publicUrl}/api`,
    dataDir: path.resolve(value.DATA_DIR),
    databaseUrl: value.DATABASE_URL,
    appUrl: value.APP_URL,
    clientId: value.AUTH0_CLIENT_ID,
    clientSecret: value.AUTH0_CLIENT_SECRET,
    tenantApprovalRequired: value.TENANT_APPROVAL_REQUIRED,
    seedDemoData: value.SEED_DEMO_DATA,
    accessTokenTtlSeconds: value.ACCESS_TOKEN_TTL_SECONDS,
  };
}
