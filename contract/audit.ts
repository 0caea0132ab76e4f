import * as z from "zod";
import { DATE_RANGE } from "./service-catalogue";

/** The audit log (issue 12): every write through the platform, allowed or refused. */

/** The stable names the platform records writes under (platform/audit/actions.ts maps routes to them). */
export const auditActions = [
  "api-tokens.create",
  "api-tokens.regenerate",
  "api-tokens.revoke",
  "audit-settings.update",
  "budgets.create",
  "budgets.delete",
  "budgets.update",
  "chart-repositories.create",
  "connections.create",
  "connections.delete",
  "connections.notifications-update",
  "connections.test",
  "connections.update",
  "environment-addons.update",
  "environment-settings.update",
  "environment-variables.create",
  "environment-variables.delete",
  "environment-variables.import",
  "environment-variables.update",
  "environments.clone",
  "environments.clone-exit",
  "environments.clone-launch",
  "environments.create",
  "environments.delete",
  "environments.fastboot",
  "environments.terraform-export",
  "invitations.cancel",
  "invitations.create",
  "invitations.resend",
  "members.remove",
  "members.roles-add",
  "members.roles-remove",
  "members.roles-update",
  "observability-providers.create",
  "onboarding.end",
  "organization.update",
  "previews.failed",
  "previews.opened",
  "previews.ready",
  "previews.refused",
  "previews.removed",
  "previews.settings-update",
  "observability-providers.delete",
  "referral.apply",
  "roles.create",
  "roles.delete",
  "roles.update",
  "service-account-tokens.create",
  "service-account-tokens.regenerate",
  "service-account-tokens.revoke",
  "service-accounts.create",
  "service-accounts.delete",
  "services.cancel",
  "services.create",
  "services.delete",
  "services.deploy",
  "services.deploy-commit",
  "services.deploy-on-push-secret-rotate",
  "services.deploy-on-push-update",
  "services.retry",
  "services.rollback",
  "services.ticket",
  "services.update",
  "services.update-draft",
  "services.upload",
] as const;
export type AuditAction = (typeof auditActions)[number];

export const auditEventSchema = z.object({
  id: z.string(),
  at: z.string(),
  userId: z.string().nullable(),
  userEmail: z.string().nullable(),
  environmentId: z.string().nullable(),
  /** The environment's name while it exists. */
  environmentName: z.string().nullable(),
  action: z.string(),
  target: z.string().nullable(),
  /** What changed, never a secret value: field names, variable names and whether secret, and the like. */
  summary: z.record(z.string(), z.unknown()).nullable(),
  requestId: z.string().nullable(),
  address: z.string().nullable(),
  userAgent: z.string().nullable(),
  /** The HTTP status the write was answered with. */
  status: z.number().int(),
  /** The API token's name when the call was made with one (decision 070). */
  tokenName: z.string().nullable().default(null),
  /** The service account's name when that token was one's; `userEmail` is then null. */
  serviceAccount: z.string().nullable().default(null),
});
export type AuditEvent = z.infer<typeof auditEventSchema>;

export const MAX_AUDIT_PAGE_SIZE = 100;
export const DEFAULT_AUDIT_PAGE_SIZE = 20;

const bound = (day: string, time: string) => Date.parse(`${day}T${time}Z`);
const isoInRange = z.iso
  .datetime({ offset: true, error: "must be a date and time (ISO 8601)" })
  .refine(
    (value) =>
      Date.parse(value) >= bound(DATE_RANGE.min, "00:00:00") &&
      Date.parse(value) <= bound(DATE_RANGE.max, "23:59:59.999"),
    `must be between ${DATE_RANGE.min} and ${DATE_RANGE.max}`,
  );

/** The filters of the list and of the CSV export. */
export const auditFilterSchema = z
  .object({
    userId: z.string().trim().min(1).max(255, "userId must be at most 255 characters").optional(),
    action: z
      .string()
      .trim()
      .min(1)
      .max(120, "action must be at most 120 characters")
      .regex(/^[a-z0-9:. /-]+$/i, "action must be an action name")
      .optional(),
    environmentId: z.guid("environmentId must be the id of an environment").optional(),
    from: isoInRange.optional(),
    to: isoInRange.optional(),
  })
  .refine((query) => !query.from || !query.to || Date.parse(query.from) <= Date.parse(query.to), {
    path: ["to"],
    message: "The end must not be before the start",
  });
export type AuditFilter = z.input<typeof auditFilterSchema>;

/** GET audit-events: the filters, newest first, a page at a time. */
export const auditEventQuerySchema = z.intersection(
  auditFilterSchema,
  z.object({
    page: z.coerce
      .number({ error: "page must be a number" })
      .int("page must be an integer")
      .min(1)
      .default(1),
    pageSize: z.coerce
      .number({ error: "pageSize must be a number" })
      .int("pageSize must be an integer")
      .min(1, "pageSize must be at least 1")
      .max(MAX_AUDIT_PAGE_SIZE, `pageSize must be at most ${MAX_AUDIT_PAGE_SIZE}`)
      .default(DEFAULT_AUDIT_PAGE_SIZE),
  }),
);
export type AuditEventQuery = AuditFilter & { page?: number; pageSize?: number };

export const auditEventListSchema = z.object({
  events: z.array(auditEventSchema),
  page: z.number().int(),
  pageSize: z.number().int(),
  /** How many events match the filters. */
  total: z.number().int().nonnegative(),
  /** Everyone the organization's log names, by e-mail: the choices of the member filter. */
  people: z.array(z.object({ userId: z.string(), userEmail: z.string() })),
});
export type AuditEventList = z.infer<typeof auditEventListSchema>;

export const MIN_AUDIT_RETENTION_DAYS = 30;
export const MAX_AUDIT_RETENTION_DAYS = 3650;
/** GET/PUT audit-settings: events older than `retentionDays` are purged. */
export const auditSettingsSchema = z.object({
  retentionDays: z.coerce
    .number({ error: "Retention must be a number of days" })
    .int("Retention must be a whole number of days")
    .min(MIN_AUDIT_RETENTION_DAYS, `Retention must be at least ${MIN_AUDIT_RETENTION_DAYS} days`)
    .max(MAX_AUDIT_RETENTION_DAYS, `Retention must be at most ${MAX_AUDIT_RETENTION_DAYS} days`),
});
export type AuditSettings = z.infer<typeof auditSettingsSchema>;

/** The columns of the CSV export, in order. */
export const auditCsvColumns = [
  "at",
  "userId",
  "userEmail",
  "environmentId",
  "environmentName",
  "action",
  "target",
  "summary",
  "requestId",
  "address",
  "userAgent",
  "status",
  "tokenName",
  "serviceAccount",
] as const;

const organization = (tenantId: string) => `/v2/organizations/${encodeURIComponent(tenantId)}`;

function withQuery(path: string, query: Record<string, string | number | undefined>): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined && value !== "") params.set(name, String(value));
  }
  const search = params.toString();
  return search ? `${path}?${search}` : path;
}

export const auditPaths = {
  /** GET: auditEventListSchema; 400 with field errors for a bad filter. */
  events: (tenantId: string, query: AuditEventQuery = {}) =>
    withQuery(`${organization(tenantId)}/audit-events`, query),
  /** GET: text/csv of every event the filters match, newest first, with auditCsvColumns as its header. */
  export: (tenantId: string, query: AuditFilter = {}) =>
    withQuery(`${organization(tenantId)}/audit-events/export`, query),
  /** GET/PUT: auditSettingsSchema. */
  settings: (tenantId: string) => `${organization(tenantId)}/audit-settings`,
};

/** How many of a member's latest actions their page shows (auditPaths.events with userId and this pageSize). */
export const RECENT_MEMBER_ACTIONS = 20;
