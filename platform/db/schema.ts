import { sql } from "drizzle-orm";
import {
  type AnyPgColumn,
  bigint,
  bigserial,
  boolean,
  check,
  date,
  doublePrecision,
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";

const createdAt = () => timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow();

/** An organization (identity side, id `org_...`) and its tenant (platform side, `tenant_id`). */
export const organizations = pgTable("organizations", {
  id: text("id").primaryKey(),
  tenantId: uuid("tenant_id")
    .notNull()
    .unique()
    .default(sql`gen_random_uuid()`),
  name: text("name").notNull().unique(),
  displayName: text("display_name").notNull(),
  approved: boolean("approved").notNull().default(true),
  /** This organization's own code to share (SPEC §7 referral). */
  referralCode: text("referral_code")
    .notNull()
    .unique()
    .default(sql`substr(md5(gen_random_uuid()::text), 1, 10)`),
  /** The referral code this organization was referred with, recorded once. */
  referredBy: text("referred_by"),
  /** How long audit events are kept, in days. */
  auditRetentionDays: integer("audit_retention_days").notNull().default(365),
  /** The plan whose limits the platform keeps to (contract/users.ts `plans`); set by the operator, no billing yet. */
  plan: text("plan").notNull().default("FREE"),
  /** What AWS roles created for this organization's connections require AssumeRole to present (issue 13). */
  awsExternalId: text("aws_external_id")
    .notNull()
    .default(sql`replace(gen_random_uuid()::text, '-', '')`),
  createdAt: createdAt(),
});

export const users = pgTable("users", {
  id: text("id").primaryKey(),
  email: text("email").notNull().unique(),
  name: text("name").notNull(),
  picture: text("picture"),
  passwordHash: text("password_hash").notNull(),
  createdAt: createdAt(),
});

/** The built-in roles (reference data); what each may do is the contract's catalogue (contract/permissions.ts). */
export const roles = pgTable("roles", {
  name: text("name").primaryKey(),
  description: text("description").notNull(),
});

/** Roles an organization's admins compose from the permission catalogue. */
export const customRoles = pgTable(
  "custom_roles",
  {
    id: uuid("id")
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    permissions: jsonb("permissions").$type<string[]>().notNull(),
    createdAt: createdAt(),
  },
  (table) => [uniqueIndex("custom_roles_organization_name").on(table.organizationId, table.name)],
);

export const memberships = pgTable(
  "memberships",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    /** When the member last called the platform in this organization (kept to the minute). */
    lastActiveAt: timestamp("last_active_at", { withTimezone: true, mode: "date" }),
    createdAt: createdAt(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.organizationId] })],
);

/**
 * A role held by a member: a built-in one (`role`) or a custom one, on the whole organization (`environment_ids`
 * null) or on the listed environments only. A member holds one or several.
 */
export const roleGrants = pgTable(
  "role_grants",
  {
    id: uuid("id")
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    organizationId: text("organization_id").notNull(),
    userId: text("user_id").notNull(),
    role: text("role").references(() => roles.name),
    customRoleId: uuid("custom_role_id").references(() => customRoles.id, { onDelete: "cascade" }),
    environmentIds: jsonb("environment_ids").$type<string[]>(),
    createdAt: createdAt(),
  },
  (table) => [
    foreignKey({
      columns: [table.userId, table.organizationId],
      foreignColumns: [memberships.userId, memberships.organizationId],
      name: "role_grants_membership",
    }).onDelete("cascade"),
    index("role_grants_member").on(table.organizationId, table.userId),
    check("role_grants_one_role", sql`(${table.role} is null) <> (${table.customRoleId} is null)`),
  ],
);

/**
 * An invitation to join an organization with role grants. Only a hash of its token is kept; a re-sent
 * invitation gets a new token (the old link dies); accepting or cancelling ends it.
 */
export const invitations = pgTable(
  "invitations",
  {
    id: uuid("id")
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    email: text("email").notNull(),
    tokenHash: text("token_hash").notNull().unique(),
    /** What the invitee will hold: `[{ role } | { customRoleId }, environmentIds?]`, as role_grants rows. */
    grants: jsonb("grants")
      .$type<{ role?: string; customRoleId?: string; environmentIds: string[] | null }[]>()
      .notNull(),
    invitedBy: text("invited_by").references(() => users.id, { onDelete: "set null" }),
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }).notNull(),
    sentAt: timestamp("sent_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    acceptedAt: timestamp("accepted_at", { withTimezone: true, mode: "date" }),
    acceptedBy: text("accepted_by").references(() => users.id, { onDelete: "set null" }),
    cancelledAt: timestamp("cancelled_at", { withTimezone: true, mode: "date" }),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex("invitations_open_per_email")
      .on(table.organizationId, table.email)
      .where(sql`${table.acceptedAt} is null and ${table.cancelledAt} is null`),
  ],
);

/**
 * One invitation link issued (a new invitation or a re-send), counted by the invitation limits
 * (platform/team/invitation-limits.ts, decision 045). No foreign keys: a deleted organization's or invitation's
 * sends still count against the address they went to.
 */
export const invitationSends = pgTable(
  "invitation_sends",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    organizationId: text("organization_id").notNull(),
    /** Lower-cased, as invitations store it. */
    email: text("email").notNull(),
    sentAt: timestamp("sent_at", { withTimezone: true, mode: "date" }).notNull(),
  },
  (table) => [
    index("invitation_sends_organization_sent").on(table.organizationId, table.sentAt),
    index("invitation_sends_email_sent").on(table.email, table.sentAt),
  ],
);

/**
 * An organization's service account (decision 070): a `users` row no one can sign in as (no password hash
 * verifies) with a membership and role grants like a member's, so the permission checks and every reference to
 * a user (created by, actor) work unchanged; this row marks it as one, and member lists leave it out.
 */
export const serviceAccounts = pgTable("service_accounts", {
  userId: text("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  organizationId: text("organization_id")
    .notNull()
    .references(() => organizations.id, { onDelete: "cascade" }),
  createdBy: text("created_by").references(() => users.id, { onDelete: "set null" }),
  createdAt: createdAt(),
});

/**
 * An API token (decision 070): a member's personal one or a service account's (`user_id` is the service
 * account's user). Only a SHA-256 hash of the token is kept; `hint` shows its last characters.
 */
export const apiTokens = pgTable(
  "api_tokens",
  {
    id: uuid("id")
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    tokenHash: text("token_hash").notNull().unique(),
    hint: text("hint").notNull(),
    /** The permissions a personal token is narrowed to; null: all its owner holds. */
    permissions: jsonb("permissions").$type<string[]>(),
    createdBy: text("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }).notNull(),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true, mode: "date" }),
    lastUsedAddress: text("last_used_address"),
    revokedAt: timestamp("revoked_at", { withTimezone: true, mode: "date" }),
    /**
     * The token's current one-minute rate-limit window and its requests so far (decision 070): kept here, not in a
     * platform process's memory, so every process counts against one limit. Unindexed, so the per-request update
     * stays a heap-only one.
     */
    rateWindowStart: timestamp("rate_window_start", { withTimezone: true, mode: "date" }),
    rateWindowCount: integer("rate_window_count").notNull().default(0),
  },
  (table) => [index("api_tokens_organization_user").on(table.organizationId, table.userId)],
);

/**
 * Every write through the platform, allowed or refused (SOC2). Append-only: the platform has no update or delete
 * path for it except the retention purge. No foreign keys: the record outlives what it names.
 */
export const auditEvents = pgTable(
  "audit_events",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    at: timestamp("at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    organizationId: text("organization_id").notNull(),
    userId: text("user_id"),
    userEmail: text("user_email"),
    environmentId: uuid("environment_id"),
    action: text("action").notNull(),
    target: text("target"),
    /** What changed, without secret values. */
    summary: jsonb("summary").$type<Record<string, unknown>>(),
    requestId: text("request_id"),
    address: text("address"),
    userAgent: text("user_agent"),
    /** The HTTP status the write was answered with. */
    status: integer("status").notNull(),
    /** The API token the call was made with (decision 070), or null for a signed-in person's call. */
    tokenId: uuid("token_id"),
    tokenName: text("token_name"),
    /** The service account's name when the token was one's (its user is then the service account). */
    serviceAccount: text("service_account"),
  },
  (table) => [
    index("audit_events_organization_at").on(table.organizationId, table.at),
    index("audit_events_organization_user_at").on(table.organizationId, table.userId, table.at),
  ],
);

export const environments = pgTable(
  "environments",
  {
    id: uuid("id")
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    tenantId: uuid("tenant_id")
      .notNull()
      .references(() => organizations.tenantId, { onDelete: "cascade" }),
    name: text("name").notNull(),
    cloningStage: text("cloning_stage").notNull().default("STAGE_UNSPECIFIED"),
    cloudProvider: text("cloud_provider").notNull().default("AWS"),
    region: text("region").notNull().default("us-east-1"),
    /** The environment configuration (contract environmentConfigSchema); null until first saved: the defaults. */
    config: jsonb("config").$type<Record<string, unknown>>(),
    /** Names of the enabled add-ons. */
    enabledAddons: jsonb("enabled_addons").$type<string[]>().notNull().default([]),
    /**
     * The environment this one was cloned from, kept as a record (no foreign key): the source may be deleted once
     * the clone no longer needs it, and the name still tells where this one came from.
     */
    clonedFromId: uuid("cloned_from_id"),
    clonedFromName: text("cloned_from_name"),
    /** The cloud account it runs in (issue 13); null: the simulated driver, for demos and tests. */
    cloudConnectionId: uuid("cloud_connection_id").references((): AnyPgColumn => connections.id, {
      onDelete: "restrict",
    }),
    /**
     * Set by a DELETE that tears the environment's services down in its cloud first (deployments/environment-teardowns.ts):
     * STAGE_IN_PROGRESS meanwhile, STAGE_FAILED with `deletion_message` saying what could not be deleted.
     */
    deletionStage: text("deletion_stage"),
    deletionMessage: text("deletion_message"),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex("environments_tenant_name").on(table.tenantId, table.name),
    index("environments_cloned_from").on(table.clonedFromId),
  ],
);

/**
 * How many times what an environment's services show has changed (decision 065): the ETag of its services' answers,
 * so an unchanged poll is answered 304 after one look-up. Kept apart from `environments` so the bump never waits
 * on a row a write holds FOR SHARE. Written only by the deferred triggers of migration 0017 (on environments,
 * resources, resource_history and engine_jobs), once per changed row at commit; a missing row reads as 0.
 */
export const environmentRevisions = pgTable("environment_revisions", {
  environmentId: uuid("environment_id")
    .primaryKey()
    .references(() => environments.id, { onDelete: "cascade" }),
  revision: bigint("revision", { mode: "number" }).notNull().default(0),
});

/**
 * Environment variables. A secret's value is only ever stored sealed (AES-256-GCM, platform/lib/cipher.ts) in
 * `encrypted_value`; a plain variable's in `value`. The check keeps the two from mixing.
 */
export const environmentVariables = pgTable(
  "environment_variables",
  {
    id: uuid("id").primaryKey(),
    environmentId: uuid("environment_id")
      .notNull()
      .references(() => environments.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    secret: boolean("secret").notNull(),
    value: text("value"),
    encryptedValue: text("encrypted_value"),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex("environment_variables_environment_name").on(table.environmentId, table.name),
    check(
      "environment_variables_value_by_kind",
      sql`(${table.secret} and ${table.value} is null and ${table.encryptedValue} is not null) or (not ${table.secret} and ${table.value} is not null and ${table.encryptedValue} is null)`,
    ),
  ],
);

/**
 * The engine's persisted jobs (platform/engine/jobs.ts): a kind's state machine, one row per run. `status` says
 * what the runner does with it: `queued` runs once `run_at` has passed, `waiting` waits for an API call, the
 * others are final. Steps run in a transaction that also records the next state, so a restart resumes.
 */
export const engineJobs = pgTable(
  "engine_jobs",
  {
    id: uuid("id")
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    kind: text("kind").notNull(),
    environmentId: uuid("environment_id").references(() => environments.id, { onDelete: "cascade" }),
    state: text("state").notNull(),
    status: text("status").notNull(),
    payload: jsonb("payload").$type<Record<string, unknown>>().notNull().default({}),
    /** Every state the job entered, oldest first: `[{ state, at }]`. */
    history: jsonb("history").$type<{ state: string; at: string }[]>().notNull().default([]),
    /** Why the job failed, for the user. */
    details: text("details"),
    runAt: timestamp("run_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    /** Failed attempts of the current step; reset when the step succeeds. */
    attempts: integer("attempts").notNull().default(0),
    lastError: text("last_error"),
    /**
     * The runner instance working on the job's step outside any transaction (a cloud call), and until when: it
     * extends the lease while it works; once the lease runs out (its instance died) another instance takes over.
     */
    leaseOwner: text("lease_owner"),
    leasedUntil: timestamp("leased_until", { withTimezone: true, mode: "date" }),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (table) => [
    index("engine_jobs_due").on(table.status, table.runAt),
    index("engine_jobs_environment").on(table.environmentId),
  ],
);

/** Feature flags: a row with no tenant is the default, a tenant's row overrides it. */
export const featureFlags = pgTable(
  "feature_flags",
  {
    id: uuid("id")
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    tenantId: uuid("tenant_id").references(() => organizations.tenantId, { onDelete: "cascade" }),
    name: text("name").notNull(),
    enabled: boolean("enabled").notNull(),
  },
  (table) => [uniqueIndex("feature_flags_tenant_name").on(table.tenantId, table.name)],
);

/** oidc-provider's persisted models (sessions, grants, codes, refresh tokens, interactions). */
export const oidcPayloads = pgTable(
  "oidc_payloads",
  {
    model: text("model").notNull(),
    id: text("id").notNull(),
    payload: jsonb("payload").notNull(),
    grantId: text("grant_id"),
    userCode: text("user_code"),
    uid: text("uid"),
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }),
    consumedAt: timestamp("consumed_at", { withTimezone: true, mode: "date" }),
  },
  (table) => [
    primaryKey({ columns: [table.model, table.id] }),
    index("oidc_payloads_grant").on(table.grantId),
    index("oidc_payloads_uid").on(table.uid),
  ],
);

/** A user's account for the product's tools, created by POST account/initialize-account. */
export const toolAccounts = pgTable("tool_accounts", {
  userId: text("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  initializedAt: timestamp("initialized_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
});

/**
 * A cloud connection job: the read-only role a CloudFormation stack creates in the user's AWS account (trusting
 * `trusted_account_id` with `external_id`), the scan of one region, and the Terraform archive it produced.
 */
export const cloudConnectionJobs = pgTable(
  "cloud_connection_jobs",
  {
    id: uuid("id")
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    awsAccountId: text("aws_account_id").notNull(),
    awsRegion: text("aws_region").notNull(),
    /** demo, assume-role or credentials: how this job reaches AWS, fixed when it is created. */
    scanner: text("scanner").notNull(),
    externalId: text("external_id").notNull(),
    roleName: text("role_name").notNull(),
    trustedAccountId: text("trusted_account_id").notNull(),
    redirectUrl: text("redirect_url").notNull(),
    status: text("status").notNull().default("INITIATING"),
    details: text("details"),
    archiveKey: text("archive_key"),
    downloadExpiresAt: timestamp("download_expires_at", { withTimezone: true, mode: "date" }),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (table) => [
    index("cloud_connection_jobs_user").on(table.userId),
    index("cloud_connection_jobs_status").on(table.status),
  ],
);

/**
 * Services (contract/services.ts), called infrastructure resources by the API. `config` holds the type's checked
 * configuration, `settings` the shared operational settings; `draft` what was saved for a later launch. Secret
 * attributes (passwords, connection strings) are only ever stored sealed, as one sealed JSON object. `version` is
 * bumped by every write so a stale edit is refused.
 */
export const resources = pgTable(
  "resources",
  {
    id: uuid("id")
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    environmentId: uuid("environment_id")
      .notNull()
      .references(() => environments.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    serviceType: text("service_type").notNull(),
    stage: text("stage").notNull(),
    version: integer("version").notNull().default(1),
    config: jsonb("config").$type<Record<string, unknown>>().notNull(),
    settings: jsonb("settings").$type<Record<string, unknown>>().notNull(),
    draft: jsonb("draft").$type<{ config: Record<string, unknown>; settings: Record<string, unknown> }>(),
    /** Retries used since the last successful deployment. */
    retries: integer("retries").notNull().default(0),
    message: text("message"),
    monthlyCost: integer("monthly_cost_cents").notNull().default(0),
    endpoint: text("endpoint"),
    pods: jsonb("pods").$type<{ name: string; status: string }[]>().notNull().default([]),
    /** Sealed JSON of the secret attributes, written by the first successful deployment. */
    sealedAttributes: text("sealed_attributes"),
    /**
     * What the cloud driver recorded of what it created (ids, ARNs), after every step of a deployment or teardown;
     * null before its first step.
     */
    cloudState: jsonb("cloud_state").$type<Record<string, string>>(),
    /** What the last deployment left for the environment's other services (a network's VPC and subnets). */
    cloudOutputs: jsonb("cloud_outputs").$type<Record<string, string>>(),
    /**
     * When the drift check (platform/deployments/drift-checks.ts) last claimed the service: set in the statement that
     * claims it, so no other instance checks it again within the interval.
     */
    driftCheckedAt: timestamp("drift_checked_at", { withTimezone: true, mode: "date" }),
    /** When the drift check found it changed outside the platform and failed it; null otherwise. */
    driftedAt: timestamp("drifted_at", { withTimezone: true, mode: "date" }),
    /** Runtime log lines have been written up to here (the simulated driver writes them lazily, on read). */
    logsWrittenUntil: timestamp("logs_written_until", { withTimezone: true, mode: "date" }),
    deployedAt: timestamp("deployed_at", { withTimezone: true, mode: "date" }),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex("resources_environment_name").on(table.environmentId, table.name),
    index("resources_environment_type").on(table.environmentId, table.serviceType),
    index("resources_environment_created").on(table.environmentId, table.createdAt),
  ],
);

/** Each action on a service (SPEC §4: Provision, Save, Create, Relaunch), newest last. */
export const resourceHistory = pgTable(
  "resource_history",
  {
    id: uuid("id")
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    resourceId: uuid("resource_id")
      .notNull()
      .references(() => resources.id, { onDelete: "cascade" }),
    action: text("action").notNull(),
    actor: text("actor").notNull(),
    at: timestamp("at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    outcome: text("outcome"),
    finishedAt: timestamp("finished_at", { withTimezone: true, mode: "date" }),
    podNames: jsonb("pod_names").$type<string[]>().notNull().default([]),
    /** What the cloud said of the change (which settings update in place, which replace the service). */
    message: text("message"),
    diff: jsonb("diff").$type<{ path: string; before?: unknown; after?: unknown }[]>().notNull().default([]),
    /**
     * An application's deployment as a version (issue 15): the configuration and settings it deployed, and once its
     * image is resolved the image and digest; `rollbackOf` names the history entry a rollback deployed again.
     */
    release: jsonb("release").$type<{
      config: Record<string, unknown>;
      settings: Record<string, unknown>;
      image?: string;
      imageDigest?: string;
      rollbackOf?: string;
    }>(),
  },
  (table) => [index("resource_history_resource").on(table.resourceId, table.at)],
);

/** Log lines of services' pods; `id` orders them and is the live tail's cursor. */
export const resourceLogs = pgTable(
  "resource_logs",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    resourceId: uuid("resource_id")
      .notNull()
      .references(() => resources.id, { onDelete: "cascade" }),
    at: timestamp("at", { withTimezone: true, mode: "date" }).notNull(),
    podName: text("pod_name").notNull(),
    level: text("level").notNull(),
    message: text("message").notNull(),
  },
  (table) => [
    index("resource_logs_resource_id").on(table.resourceId, table.id),
    index("resource_logs_resource_at").on(table.resourceId, table.at),
  ],
);

/**
 * CPU and memory of a service on a container host, sampled from the engine every minute (the engine keeps no
 * history: platform/deployments/usage-samples.ts), as shares of the containers' limits; kept 7 days.
 */
export const resourceUsageSamples = pgTable(
  "resource_usage_samples",
  {
    resourceId: uuid("resource_id")
      .notNull()
      .references(() => resources.id, { onDelete: "cascade" }),
    at: timestamp("at", { withTimezone: true, mode: "date" }).notNull(),
    cpuPercent: doublePrecision("cpu_percent").notNull(),
    memoryPercent: doublePrecision("memory_percent").notNull(),
  },
  (table) => [primaryKey({ columns: [table.resourceId, table.at] })],
);

/** Serverless function archives, kept until the environment goes (base64 of the zip). */
export const serverlessUploads = pgTable(
  "serverless_uploads",
  {
    id: uuid("id")
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    environmentId: uuid("environment_id")
      .notNull()
      .references(() => environments.id, { onDelete: "cascade" }),
    fileName: text("file_name").notNull(),
    sizeBytes: integer("size_bytes").notNull(),
    sha256: text("sha256").notNull(),
    content: text("content").notNull(),
    createdAt: createdAt(),
  },
  (table) => [index("serverless_uploads_environment").on(table.environmentId)],
);

export const observabilityProviders = pgTable(
  "observability_providers",
  {
    id: uuid("id")
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    environmentId: uuid("environment_id")
      .notNull()
      .references(() => environments.id, { onDelete: "cascade" }),
    /** An observability connection of the environment's organization (issue 13); deleting it is refused while linked. */
    connectionId: uuid("connection_id")
      .notNull()
      .references(() => connections.id, { onDelete: "restrict" }),
    /** The forwarder's progress: metrics up to this time have been posted to the provider. */
    lastForwardedAt: timestamp("last_forwarded_at", { withTimezone: true, mode: "date" }),
    /** The provider's answer to the last failed post; null once a post succeeds. */
    lastForwardError: text("last_forward_error"),
    /** Held by the forwarder while it posts, so two platform instances do not post the same minute twice. */
    leasedUntil: timestamp("leased_until", { withTimezone: true, mode: "date" }),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex("observability_providers_environment_connection").on(table.environmentId, table.connectionId),
  ],
);

export const chartRepositories = pgTable(
  "chart_repositories",
  {
    id: uuid("id")
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    environmentId: uuid("environment_id")
      .notNull()
      .references(() => environments.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    url: text("url").notNull(),
    createdAt: createdAt(),
  },
  (table) => [uniqueIndex("chart_repositories_environment_name").on(table.environmentId, table.name)],
);

/**
 * Failed sign-in attempts per account (the typed e-mail, known or not) and per client address, counted before
 * the password is checked and taken back when it was right; `blocked_until` is when the next attempt is
 * allowed (a growing delay or a lockout).
 */
export const loginAttempts = pgTable(
  "login_attempts",
  {
    kind: text("kind").notNull(),
    key: text("key").notNull(),
    failures: integer("failures").notNull(),
    lastAttemptAt: timestamp("last_attempt_at", { withTimezone: true, mode: "date" }).notNull(),
    blockedUntil: timestamp("blocked_until", { withTimezone: true, mode: "date" }),
  },
  (table) => [
    primaryKey({ columns: [table.kind, table.key] }),
    check("login_attempts_kind", sql`${table.kind} in ('account', 'address')`),
  ],
);

/**
 * A connection to a cloud account or tool (issue 13). Plain field values are kept as they are; secret ones are
 * sealed together (platform/lib/cipher.ts, context `connection:{id}`) and never leave the platform.
 */
export const connections = pgTable(
  "connections",
  {
    id: uuid("id")
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    kind: text("kind").notNull(),
    name: text("name").notNull(),
    method: text("method").notNull(),
    fields: jsonb("fields").$type<Record<string, string>>().notNull().default({}),
    /** The secret fields as one sealed JSON object; null when the kind has none set. */
    sealedSecrets: text("sealed_secrets"),
    /** The last four characters of each secret field, shown to admins as a reminder of which one is set. */
    secretHints: jsonb("secret_hints").$type<Record<string, string>>().notNull().default({}),
    /** VERIFIED, FAILING or UNVERIFIED (contract connectionStatuses). */
    status: text("status").notNull(),
    /** Slack and Teams: which events for which environments (contract notificationRulesSchema). */
    notifications: jsonb("notifications").$type<{ events: string[]; environmentIds: string[] | null }>(),
    createdBy: text("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex("connections_organization_name").on(table.organizationId, table.name),
    index("connections_organization_kind").on(table.organizationId, table.kind),
  ],
);

/** Each check of a connection's credentials against its provider, newest kept for the connection's page. */
export const connectionChecks = pgTable(
  "connection_checks",
  {
    id: uuid("id")
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    connectionId: uuid("connection_id")
      .notNull()
      .references(() => connections.id, { onDelete: "cascade" }),
    at: timestamp("at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    ok: boolean("ok").notNull(),
    message: text("message").notNull(),
    details: jsonb("details").$type<string[]>().notNull().default([]),
    actorId: text("actor_id").references(() => users.id, { onDelete: "set null" }),
  },
  (table) => [index("connection_checks_connection_at").on(table.connectionId, table.at)],
);

/**
 * A notification to post through a Slack or Teams connection. The delivery worker leases a due one
 * (`leased_until`), posts it outside any transaction, and records the attempt; a lease that runs out (the
 * platform stopped mid-post) makes it due again, so deliveries survive restarts.
 */
export const notificationDeliveries = pgTable(
  "notification_deliveries",
  {
    id: uuid("id")
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    connectionId: uuid("connection_id")
      .notNull()
      .references(() => connections.id, { onDelete: "cascade" }),
    environmentId: uuid("environment_id"),
    event: text("event").notNull(),
    /** What to post: the message's text and the page it links to (no secrets). */
    message: jsonb("message")
      .$type<{ title: string; text: string; link: string; facts: Record<string, string> }>()
      .notNull(),
    /** pending, delivered or failed (contract deliveryStatuses). */
    status: text("status").notNull().default("pending"),
    attempts: jsonb("attempts").$type<{ at: string; ok: boolean; message: string }[]>().notNull().default([]),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    leasedUntil: timestamp("leased_until", { withTimezone: true, mode: "date" }),
    createdAt: createdAt(),
  },
  (table) => [
    index("notification_deliveries_due").on(table.status, table.nextAttemptAt),
    index("notification_deliveries_connection_created").on(table.connectionId, table.createdAt),
  ],
);

/**
 * Deploy on push (issue 15): an application's GitHub webhook. `id` is the hook's address
 * (/api/webhooks/github/{id}), apart from the application's id; the secret GitHub signs payloads with is sealed
 * bound to the hook (platform/deploy-on-push/hooks.ts).
 */
export const deployHooks = pgTable("deploy_hooks", {
  id: uuid("id")
    .primaryKey()
    .default(sql`gen_random_uuid()`),
  resourceId: uuid("resource_id")
    .notNull()
    .unique("deploy_hooks_resource")
    .references(() => resources.id, { onDelete: "cascade" }),
  enabled: boolean("enabled").notNull(),
  sealedSecret: text("sealed_secret").notNull(),
  secretCreatedAt: timestamp("secret_created_at", { withTimezone: true, mode: "date" }).notNull(),
  createdAt: createdAt(),
});

/**
 * Each push a hook accepted, with the commit it names. `history_id` is the deployment that deploys it (a burst's
 * earlier pushes share it with the newest, which the deployment builds); null while it waits for a running
 * deployment to end.
 */
export const deployPushes = pgTable(
  "deploy_pushes",
  {
    id: uuid("id")
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    resourceId: uuid("resource_id")
      .notNull()
      .references(() => resources.id, { onDelete: "cascade" }),
    /** GitHub's X-GitHub-Delivery: a redelivered push is recognised and not deployed twice. */
    deliveryId: text("delivery_id").notNull(),
    branch: text("branch").notNull(),
    sha: text("sha").notNull(),
    /** The head commit's timestamp: a push of a commit older than the branch's last one is not deployed. */
    committedAt: timestamp("committed_at", { withTimezone: true, mode: "date" }),
    message: text("message").notNull(),
    author: text("author").notNull(),
    receivedAt: timestamp("received_at", { withTimezone: true, mode: "date" }).notNull(),
    historyId: uuid("history_id").references(() => resourceHistory.id, { onDelete: "set null" }),
  },
  (table) => [
    uniqueIndex("deploy_pushes_resource_delivery").on(table.resourceId, table.deliveryId),
    index("deploy_pushes_resource_received").on(table.resourceId, table.receivedAt),
    index("deploy_pushes_history").on(table.historyId),
  ],
);

/**
 * What a service costs from a moment on (issue 16, decision 035): the engine closes the open segment and opens a
 * new one in the transaction that deploys, scales or relaunches the service, and closes it when the service is
 * deleted. The raw usage record: exact to the second, priced from the catalogue, and carrying the service's name,
 * type and environment so it outlives the service and the environment (no foreign keys).
 */
export const usageSegments = pgTable(
  "usage_segments",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    organizationId: text("organization_id").notNull(),
    environmentId: uuid("environment_id").notNull(),
    environmentName: text("environment_name").notNull(),
    resourceId: uuid("resource_id").notNull(),
    serviceName: text("service_name").notNull(),
    serviceType: text("service_type").notNull(),
    cloudProvider: text("cloud_provider").notNull(),
    region: text("region").notNull(),
    /** The environment's cloud connection id, or "simulated". */
    cloudAccount: text("cloud_account").notNull(),
    /** The size in words (instance class, node type, vCPU and memory). */
    size: text("size").notNull(),
    /** Instances, nodes or replicas running. */
    replicas: integer("replicas").notNull(),
    /** Per replica (an application's instance, a cluster's node): vCPU and GB of memory, requested and typically used. */
    cpu: doublePrecision("cpu").notNull().default(0),
    memoryGb: doublePrecision("memory_gb").notNull().default(0),
    cpuUsed: doublePrecision("cpu_used").notNull().default(0),
    memoryUsedGb: doublePrecision("memory_used_gb").notNull().default(0),
    /** The catalogue's monthly price (730 hours) in US dollars for the whole service at this size. */
    monthlyCost: doublePrecision("monthly_cost").notNull(),
    startedAt: timestamp("started_at", { withTimezone: true, mode: "date" }).notNull(),
    /** Null while it runs. */
    endedAt: timestamp("ended_at", { withTimezone: true, mode: "date" }),
  },
  (table) => [
    uniqueIndex("usage_segments_open_per_resource")
      .on(table.resourceId)
      .where(sql`${table.endedAt} is null`),
    index("usage_segments_organization_started").on(table.organizationId, table.startedAt),
    index("usage_segments_ended").on(table.endedAt),
  ],
);

/**
 * A service's accrued cost on one UTC day (issue 16): recomputed from the segments by the accrual worker each hour
 * for the hours that have fully elapsed, so queries read one row per service and day. Carries the segments' labels.
 */
export const usageDaily = pgTable(
  "usage_daily",
  {
    day: date("day", { mode: "string" }).notNull(),
    resourceId: uuid("resource_id").notNull(),
    organizationId: text("organization_id").notNull(),
    environmentId: uuid("environment_id").notNull(),
    environmentName: text("environment_name").notNull(),
    serviceName: text("service_name").notNull(),
    serviceType: text("service_type").notNull(),
    cloudProvider: text("cloud_provider").notNull(),
    region: text("region").notNull(),
    cloudAccount: text("cloud_account").notNull(),
    cost: doublePrecision("cost").notNull(),
    /** The service's cost from its first day up to and including this one: a window's cost is two lookups. */
    cumulativeCost: doublePrecision("cumulative_cost").notNull().default(0),
    /** Hours the service ran, replica-hours, and vCPU- and GB-hours requested and used (Kubernetes allocation). */
    hours: doublePrecision("hours").notNull(),
    replicaHours: doublePrecision("replica_hours").notNull(),
    cpuHours: doublePrecision("cpu_hours").notNull(),
    memoryGbHours: doublePrecision("memory_gb_hours").notNull(),
    cpuUsedHours: doublePrecision("cpu_used_hours").notNull(),
    memoryUsedGbHours: doublePrecision("memory_used_gb_hours").notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.day, table.resourceId] }),
    index("usage_daily_organization_day").on(table.organizationId, table.day),
    index("usage_daily_resource_day").on(table.resourceId, table.day),
  ],
);

/**
 * The daily cost of an organization per environment and service type, summed from usage_daily: what the overview's
 * chart, tables, month figures and CSV read, a few rows per day whatever the number of services.
 */
export const usageDailyTotals = pgTable(
  "usage_daily_totals",
  {
    organizationId: text("organization_id").notNull(),
    day: date("day", { mode: "string" }).notNull(),
    environmentId: uuid("environment_id").notNull(),
    environmentName: text("environment_name").notNull(),
    serviceType: text("service_type").notNull(),
    cost: doublePrecision("cost").notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.organizationId, table.day, table.environmentId, table.serviceType] }),
  ],
);

/** The same per UTC month (`month` is its first day), summed from usage_daily. */
export const usageMonthly = pgTable(
  "usage_monthly",
  {
    month: date("month", { mode: "string" }).notNull(),
    resourceId: uuid("resource_id").notNull(),
    organizationId: text("organization_id").notNull(),
    environmentId: uuid("environment_id").notNull(),
    environmentName: text("environment_name").notNull(),
    serviceName: text("service_name").notNull(),
    serviceType: text("service_type").notNull(),
    cost: doublePrecision("cost").notNull(),
    hours: doublePrecision("hours").notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.month, table.resourceId] }),
    index("usage_monthly_organization_month").on(table.organizationId, table.month),
  ],
);

/** How far the accrual worker has rolled usage up: every hour before `accrued_until` is in the rollups. One row. */
export const usageAccrual = pgTable("usage_accrual", {
  id: integer("id").primaryKey(),
  accruedUntil: timestamp("accrued_until", { withTimezone: true, mode: "date" }).notNull(),
});

/** A monthly budget in US dollars for the organization (`environment_id` null) or one environment. */
export const budgets = pgTable(
  "budgets",
  {
    id: uuid("id")
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    environmentId: uuid("environment_id").references(() => environments.id, { onDelete: "cascade" }),
    amount: doublePrecision("amount").notNull(),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex("budgets_organization_scope").on(
      table.organizationId,
      sql`coalesce(${table.environmentId}, '00000000-0000-0000-0000-000000000000'::uuid)`,
    ),
  ],
);

/** A budget's threshold crossed in a month, by actual spend or by forecast: once each (the unique key). */
export const budgetAlerts = pgTable(
  "budget_alerts",
  {
    id: uuid("id")
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    budgetId: uuid("budget_id")
      .notNull()
      .references(() => budgets.id, { onDelete: "cascade" }),
    organizationId: text("organization_id").notNull(),
    month: date("month", { mode: "string" }).notNull(),
    /** actual or forecast (contract budgetAlertKinds). */
    kind: text("kind").notNull(),
    /** Percent of the budget: 80 or 100. */
    threshold: integer("threshold").notNull(),
    /** What the spend (or forecast) and the budget were when it fired. */
    value: doublePrecision("value").notNull(),
    budgetAmount: doublePrecision("budget_amount").notNull(),
    at: timestamp("at", { withTimezone: true, mode: "date" }).notNull(),
  },
  (table) => [
    uniqueIndex("budget_alerts_once").on(table.budgetId, table.month, table.kind, table.threshold),
    index("budget_alerts_organization_at").on(table.organizationId, table.at),
  ],
);

/**
 * An organization's onboarding (issue 17): started when the organization is created through the form, ended for
 * the whole organization (every member, every device) when a member finishes or dismisses it. No row: never
 * started (organizations from before, the demo data). The checklist is not stored: it is read from the data.
 */
export const onboardingStates = pgTable(
  "onboarding_states",
  {
    organizationId: text("organization_id")
      .primaryKey()
      .references(() => organizations.id, { onDelete: "cascade" }),
    startedAt: timestamp("started_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    endedAt: timestamp("ended_at", { withTimezone: true, mode: "date" }),
    /** finished or dismissed (contract onboardingEndings); null while in progress. */
    outcome: text("outcome"),
    endedBy: text("ended_by").references(() => users.id, { onDelete: "set null" }),
  },
  (table) => [
    check("onboarding_states_outcome", sql`${table.outcome} in ('finished', 'dismissed')`),
    check("onboarding_states_ended", sql`(${table.endedAt} is null) = (${table.outcome} is null)`),
  ],
);

/**
 * Preview environments (issue 28, decision 069): an environment's preview setting. `webhook_id` is the address
 * GitHub posts pull request events to (/api/webhooks/github/previews/{id}), apart from the environment's id; its
 * secret is sealed bound to it. The connection is checked when the setting is saved and when it is used (no foreign
 * key: deleting the connection leaves a setting that says so).
 */
export const previewSettings = pgTable("preview_settings", {
  environmentId: uuid("environment_id")
    .primaryKey()
    .references(() => environments.id, { onDelete: "cascade" }),
  webhookId: uuid("webhook_id").notNull().unique("preview_settings_webhook"),
  enabled: boolean("enabled").notNull(),
  connectionId: uuid("connection_id").notNull(),
  /** owner/name, as GitHub names it in events. */
  repository: text("repository").notNull(),
  /** The source environment's applications built from the pull request's head; the others keep their image. */
  applicationIds: jsonb("application_ids").$type<string[]>().notNull(),
  namePattern: text("name_pattern").notNull(),
  maxPreviews: integer("max_previews").notNull(),
  idleDays: integer("idle_days").notNull(),
  /** Run once by the preview's first deployment of its first chosen application (decision 073); "" for none. */
  seedCommand: text("seed_command").notNull().default(""),
  sealedSecret: text("sealed_secret").notNull(),
  secretCreatedAt: timestamp("secret_created_at", { withTimezone: true, mode: "date" }).notNull(),
  createdAt: createdAt(),
});

/**
 * One pull request's preview of a source environment, across its life: the row outlives its environment
 * (`environment_id` null once removed), so a reopened pull request updates the same GitHub comment.
 */
export const previews = pgTable(
  "previews",
  {
    id: uuid("id")
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    tenantId: uuid("tenant_id")
      .notNull()
      .references(() => organizations.tenantId, { onDelete: "cascade" }),
    sourceEnvironmentId: uuid("source_environment_id")
      .notNull()
      .references(() => environments.id, { onDelete: "cascade" }),
    environmentId: uuid("environment_id")
      .unique("previews_environment")
      .references(() => environments.id, { onDelete: "set null" }),
    environmentName: text("environment_name").notNull(),
    number: integer("number").notNull(),
    title: text("title").notNull(),
    author: text("author").notNull(),
    url: text("url").notNull(),
    headBranch: text("head_branch").notNull(),
    headSha: text("head_sha").notNull(),
    /** contract previewStates */
    state: text("state").notNull(),
    message: text("message"),
    /** GitHub's ids of the pull request's one comment and of the current deployment. */
    commentId: bigint("comment_id", { mode: "number" }),
    deploymentId: bigint("deployment_id", { mode: "number" }),
    lastActivityAt: timestamp("last_activity_at", { withTimezone: true, mode: "date" }).notNull(),
    createdAt: createdAt(),
  },
  (table) => [uniqueIndex("previews_source_number").on(table.sourceEnvironmentId, table.number)],
);

/** The X-GitHub-Delivery ids a preview webhook took: a redelivery does nothing twice. */
export const previewDeliveries = pgTable(
  "preview_deliveries",
  {
    webhookId: uuid("webhook_id")
      .notNull()
      .references(() => previewSettings.webhookId, { onDelete: "cascade" }),
    deliveryId: text("delivery_id").notNull(),
    receivedAt: timestamp("received_at", { withTimezone: true, mode: "date" }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.webhookId, table.deliveryId] })],
);
