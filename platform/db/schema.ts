import { sql } from "drizzle-orm";
import {
  boolean,
  index,
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

export const roles = pgTable("roles", {
  name: text("name").primaryKey(),
  description: text("description").notNull(),
  canWrite: boolean("can_write").notNull(),
});

export const memberships = pgTable(
  "memberships",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    roleName: text("role_name")
      .notNull()
      .references(() => roles.name),
    createdAt: createdAt(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.organizationId] })],
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
    createdAt: createdAt(),
  },
  (table) => [uniqueIndex("environments_tenant_name").on(table.tenantId, table.name)],
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
