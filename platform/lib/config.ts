import path from "node:path";
import addressparser from "nodemailer/lib/addressparser";
import * as z from "zod";
import { parseContainerSockets } from "./container-sockets";
import { parseOutboundAllowList, type OutboundAllowList } from "./egress";

const url = z.url().transform((value) => value.replace(/\/+$/, ""));

const DEFAULT_MAIL_FROM = "Cloud Console <no-reply@localhost>";
export const DEFAULT_DRIFT_CHECK_INTERVAL_SECONDS = 300;

export const terraformScanners = ["demo", "assume-role", "credentials"] as const;
export type TerraformScanner = (typeof terraformScanners)[number];

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
  /**
   * How many reverse proxies in front of the platform to trust for the client's address (X-Forwarded-For), which
   * sign-in and sign-up limits key on: `false` (none: the socket's address), `true` (one), or a number.
   */
  TRUST_PROXY: z
    .string()
    .trim()
    .regex(/^(true|false|\d)$/, "must be false, true (one proxy) or the number of proxies, 0 to 9")
    .default("false")
    .transform((value) => (value === "true" ? 1 : value === "false" ? 0 : Number(value))),
  /** Lifetime of the access tokens the identity provider issues, in seconds. */
  ACCESS_TOKEN_TTL_SECONDS: z.coerce.number().int().min(30).default(3600),
  /** Seed the demo organizations and accounts into an empty database. */
  SEED_DEMO_DATA: z
    .enum(["true", "false"])
    .default("true")
    .transform((value) => value === "true"),
  /**
   * How Terraform generation reaches AWS: `demo` scans a built-in demo account inventory (no AWS access needed),
   * `assume-role` assumes the read-only role the CloudFormation stack creates (STS, with the job's external id),
   * `credentials` scans with the platform's own AWS credentials (the default credential chain).
   */
  TERRAFORM_SCANNER: z.enum(terraformScanners).default("demo"),
  /** One endpoint for every AWS call (moto_server in tests); S3 then uses path-style addresses. */
  AWS_ENDPOINT_URL: url.optional(),
  /** Region of the platform's own AWS calls (STS identity, the archive bucket). */
  AWS_REGION: z.string().min(1).default("us-east-1"),
  /** The AWS account the read-only role trusts; read from STS GetCallerIdentity when unset. */
  AWS_PLATFORM_ACCOUNT_ID: z
    .string()
    .regex(/^\d{12}$/, "must be a 12-digit AWS account id")
    .optional(),
  /** How long a job waits for the CloudFormation stack to create an assumable role. */
  TERRAFORM_ROLE_WAIT_SECONDS: z.coerce.number().int().positive().default(900),
  /** How often a waiting job tries to assume the role. */
  TERRAFORM_ROLE_POLL_SECONDS: z.coerce.number().positive().default(10),
  /** Lifetime of a generated archive's signed download link. */
  TERRAFORM_DOWNLOAD_TTL_SECONDS: z.coerce.number().int().positive().default(86_400),
  /** S3 bucket for generated archives; unset keeps them in DATA_DIR/terraform. */
  TERRAFORM_ARCHIVE_BUCKET: z.string().min(3).optional(),
  /** HMAC key of the signed download links; generated into DATA_DIR when unset. */
  DOWNLOAD_SIGNING_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
  /**
   * Where the CloudFormation console fetches the Terraform tool's read-only role template from. Defaults to the copy
   * the platform serves; the AWS console's quick-create links only accept templates in S3, so production points
   * this at an S3 copy.
   */
  CLOUDFORMATION_TEMPLATE_URL: z.url().optional(),
  /** The same for the deploy role template of AWS connections (their "Assume a role" method). */
  CLOUDFORMATION_DEPLOY_TEMPLATE_URL: z.url().optional(),
  /**
   * AES-256-GCM keys for secrets at rest (environment variables marked secret): comma-separated, each the base64
   * of 32 random bytes (`openssl rand -base64 32`). The first encrypts, every one decrypts (rotation). Unset: a
   * key generated once into DATA_DIR/encryption-keys.json (mode 0600).
   */
  PLATFORM_ENCRYPTION_KEY: z
    .string()
    .min(1)
    .transform((value, context) => {
      const keys = value.split(",").map((key) => key.trim());
      if (keys.some((key) => !isEncryptionKey(key)))
        context.addIssue({ code: "custom", message: "each key must be the base64 of 32 bytes" });
      return keys;
    })
    .optional(),
  /**
   * The SMTP server mail goes through, with its credentials: `smtp://user:pass@host:587` (STARTTLS when the
   * server offers it) or `smtps://user:pass@host:465` (TLS from the start). Unset: no mail is sent.
   */
  SMTP_URL: z.url({ protocol: /^smtps?$/, error: "must be an smtp:// or smtps:// URL" }).optional(),
  /** The sender of every mail, a mailbox such as `Cloud Console <no-reply@example.com>`. */
  MAIL_FROM: z
    .string()
    .trim()
    .default(DEFAULT_MAIL_FROM)
    .refine(isMailbox, "must be one address, such as Cloud Console <no-reply@example.com>"),
  /**
   * Internal addresses the platform may call for a tenant (decision 042): comma-separated addresses, CIDR ranges
   * and host names. Empty: only public addresses.
   */
  OUTBOUND_ALLOW: z
    .string()
    .default("")
    .transform((value, context) => {
      const { allowList, problems } = parseOutboundAllowList(value);
      for (const message of problems) context.addIssue({ code: "custom", message });
      return allowList;
    }),
  /**
   * Unix sockets of container engines a tenant's container host connection may name (issue 26): comma-separated
   * absolute paths. Empty: none (an engine's socket controls this machine; platform/lib/container-sockets.ts).
   */
  CONTAINER_SOCKETS: z
    .string()
    .default("")
    .transform((value, context) => {
      const { sockets, problems } = parseContainerSockets(value);
      for (const message of problems) context.addIssue({ code: "custom", message });
      return sockets;
    }),
  /**
   * With SEED_DEMO_DATA, give the demo organization a "This machine" connection to the first CONTAINER_SOCKETS
   * engine that answers (platform/seed/this-machine.ts). The e2e stack turns it off: its specs expect Acme's
   * environments on the simulated cloud.
   */
  SEED_CONTAINER_HOST: z
    .enum(["true", "false"])
    .default("true")
    .transform((value) => value === "true"),
  /**
   * Caddy's admin API (docs/decisions/063), e.g. `http://127.0.0.1:2019`: each application on a container host gets
   * a stable address through it. Unset: an application's URL is its container's published port, new each deploy.
   */
  CONTAINER_PROXY_ADMIN_URL: z
    .url({ protocol: /^https?$/, error: "must be an http:// or https:// URL" })
    .transform((value) => value.replace(/\/+$/, ""))
    .optional(),
  /** The address Caddy listens on for the applications, and the host their URLs name. */
  CONTAINER_PROXY_HOST: z.string().trim().min(1).default("127.0.0.1"),
  /** Multiplies every engine step duration: 1 gives a few seconds per clone step, 0 runs steps back to back. */
  ENGINE_TIME_SCALE: z.coerce.number().min(0).max(1000).default(1),
  /** How often the engine looks for due jobs. */
  ENGINE_POLL_INTERVAL_MS: z.coerce.number().int().min(1).default(500),
  COST_ACCRUAL_INTERVAL_MS: z.coerce.number().int().min(1000).default(60_000),
  /**
   * How often the drift check looks at each deployed service of an environment in an AWS connection for changes
   * made outside the platform (a stopped instance, a deleted queue).
   */
  DRIFT_CHECK_INTERVAL_SECONDS: z.coerce.number().int().min(10).default(DEFAULT_DRIFT_CHECK_INTERVAL_SECONDS),
  /** When true, a clone whose new name contains `fail-<step>` fails at that step (tests and demos). */
  ENGINE_FAILURE_INJECTION: z
    .enum(["true", "false"])
    .default("false")
    .transform((value) => value === "true"),
});

function isMailbox(value: string): boolean {
  const [mailbox, ...others] = addressparser(value, { flatten: true });
  return others.length === 0 && /^[^\s@]+@[^\s@]+$/.test(mailbox?.address ?? "");
}

function isEncryptionKey(key: string): boolean {
  return /^[A-Za-z0-9+/_-]+={0,2}$/.test(key) && Buffer.from(key, "base64").length === 32;
}

/** The engine that runs jobs such as clones (README, "The embedded platform"). */
export type EngineConfig = {
  timeScale: number;
  pollIntervalMs: number;
  failureInjection: boolean;
};

export const defaultEngineConfig: EngineConfig = {
  timeScale: 1,
  pollIntervalMs: 500,
  failureInjection: false,
};

/** Terraform generation settings (README, "The embedded platform"). */
export type TerraformConfig = {
  scanner: TerraformScanner;
  awsEndpoint?: string;
  awsRegion: string;
  platformAccountId?: string;
  roleWaitSeconds: number;
  rolePollSeconds: number;
  downloadTtlSeconds: number;
  archiveBucket?: string;
  downloadSigningSecret?: string;
  /** The read-only role template's address (the Terraform tool). */
  templateUrl?: string;
  /** The deploy role template's address (AWS connections). */
  deployTemplateUrl?: string;
};

export const defaultTerraformConfig: TerraformConfig = {
  scanner: "demo",
  awsRegion: "us-east-1",
  roleWaitSeconds: 900,
  rolePollSeconds: 10,
  downloadTtlSeconds: 86_400,
};

/** Mail delivery (README, "The embedded platform"); platform/lib/mail/mailer.ts sends with it. */
export type MailConfig = {
  /** SMTP_URL, credentials included; unset means no mail is sent. Never log it. */
  smtpUrl?: string;
  from: string;
};

export const defaultMailConfig: MailConfig = { from: DEFAULT_MAIL_FROM };

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
  /** TRUST_PROXY: reverse proxies whose X-Forwarded-For entries are believed (lib/client-address.ts); unset: 0. */
  trustProxyHops?: number;
  seedDemoData: boolean;
  accessTokenTtlSeconds: number;
  terraform: TerraformConfig;
  /** PLATFORM_ENCRYPTION_KEY, split; unset means the key generated into the data dir. */
  encryptionKeys?: string[];
  engine: EngineConfig;
  /** DRIFT_CHECK_INTERVAL_SECONDS: each service is checked at most once per interval (platform/deployments/drift-checks.ts). */
  driftCheckIntervalSeconds: number;
  mail: MailConfig;
  /** How often usage is accrued and budgets checked (COST_ACCRUAL_INTERVAL_MS); a minute when unset. */
  costAccrualIntervalMs?: number;
  /** OUTBOUND_ALLOW, read; main.ts applies it to the egress policy (platform/lib/egress.ts). */
  outboundAllow: OutboundAllowList;
  /** CONTAINER_SOCKETS, read; main.ts applies it (platform/lib/container-sockets.ts). */
  containerSockets: string[];
  /** SEED_CONTAINER_HOST. */
  seedContainerHost: boolean;
  /** CONTAINER_PROXY_ADMIN_URL and CONTAINER_PROXY_HOST; unset without an admin URL (no reverse proxy). */
  containerProxy?: { adminUrl: string; host: string };
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
    trustProxyHops: value.TRUST_PROXY,
    seedDemoData: value.SEED_DEMO_DATA,
    accessTokenTtlSeconds: value.ACCESS_TOKEN_TTL_SECONDS,
    terraform: {
      scanner: value.TERRAFORM_SCANNER,
      awsEndpoint: value.AWS_ENDPOINT_URL,
      awsRegion: value.AWS_REGION,
      platformAccountId: value.AWS_PLATFORM_ACCOUNT_ID,
      roleWaitSeconds: value.TERRAFORM_ROLE_WAIT_SECONDS,
      rolePollSeconds: value.TERRAFORM_ROLE_POLL_SECONDS,
      downloadTtlSeconds: value.TERRAFORM_DOWNLOAD_TTL_SECONDS,
      archiveBucket: value.TERRAFORM_ARCHIVE_BUCKET,
      downloadSigningSecret: value.DOWNLOAD_SIGNING_SECRET,
      templateUrl: value.CLOUDFORMATION_TEMPLATE_URL,
      deployTemplateUrl: value.CLOUDFORMATION_DEPLOY_TEMPLATE_URL,
    },
    encryptionKeys: value.PLATFORM_ENCRYPTION_KEY,
    engine: {
      timeScale: value.ENGINE_TIME_SCALE,
      pollIntervalMs: value.ENGINE_POLL_INTERVAL_MS,
      failureInjection: value.ENGINE_FAILURE_INJECTION,
    },
    driftCheckIntervalSeconds: value.DRIFT_CHECK_INTERVAL_SECONDS,
    mail: { smtpUrl: value.SMTP_URL, from: value.MAIL_FROM },
    costAccrualIntervalMs: value.COST_ACCRUAL_INTERVAL_MS,
    outboundAllow: value.OUTBOUND_ALLOW,
    containerSockets: value.CONTAINER_SOCKETS,
    seedContainerHost: value.SEED_CONTAINER_HOST,
    ...(value.CONTAINER_PROXY_ADMIN_URL
      ? { containerProxy: { adminUrl: value.CONTAINER_PROXY_ADMIN_URL, host: value.CONTAINER_PROXY_HOST } }
      : {}),
  };
}
