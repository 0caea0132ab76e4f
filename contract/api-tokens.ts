import * as z from "zod";
import { permissionSchema, roleGrantSchema } from "./permissions";

/**
 * API tokens (issue 29, decision 070): a member's personal tokens and an organization's service accounts' tokens.
 * Every token reads `ccp_` followed by 36 letters and digits: 30 random, then 6 encoding a CRC32 of the random
 * part, so a secret scanner can match `ccp_[A-Za-z0-9]{36}` and check the sum without asking the platform.
 */
export const API_TOKEN_PREFIX = "ccp_";
export const apiTokenPattern = /^ccp_[A-Za-z0-9]{36}$/;

export const DEFAULT_API_TOKEN_DAYS = 90;
export const MAX_API_TOKEN_DAYS = 365;
export const apiTokenDayChoices = [7, 30, 90, 180, 365] as const;

/** Requests one token may make per minute; the next is answered 429 with Retry-After. */
export const API_TOKEN_REQUESTS_PER_MINUTE = 300;

export const apiTokenErrorMessages = {
  revoked: "This API token has been revoked",
  expired: "This API token has expired",
  unknown: "This API token is not valid",
  foreignOrganization: "This API token belongs to another organization",
  ownerGone: "The owner of this API token is no longer a member of its organization",
  outsideOrganization:
    "API tokens work only on their organization's routes (/api/v2/organizations/<tenant id>/…)",
  personOnly: "API tokens are created and revoked by a signed-in person, not with another token",
  rateLimited: (seconds: number) =>
    `This API token has made ${API_TOKEN_REQUESTS_PER_MINUTE} requests in a minute, the most allowed. ` +
    `Try again in ${seconds} seconds.`,
} as const;
export const API_TOKEN_RATE_LIMITED_CODE = "API_TOKEN_RATE_LIMITED";

const tokenName = z
  .string({ error: "Name the token" })
  .trim()
  .min(1, "Name the token")
  .max(100, "A token's name is at most 100 characters");

const expiresInDays = z.coerce
  .number({ error: "Expiry must be a number of days" })
  .int("Expiry must be a whole number of days")
  .min(1, "A token lasts at least 1 day")
  .max(MAX_API_TOKEN_DAYS, `A token lasts at most ${MAX_API_TOKEN_DAYS} days`)
  .default(DEFAULT_API_TOKEN_DAYS);

/** POST api-tokens: a personal token; `permissions` narrows it to some of the member's own (all when absent). */
export const createPersonalTokenSchema = z.object({
  name: tokenName,
  expiresInDays,
  permissions: z
    .array(permissionSchema)
    .min(1, "Choose at least one permission, or none to keep all")
    .optional(),
});
export type CreatePersonalToken = z.input<typeof createPersonalTokenSchema>;

/** POST service-accounts: a service account holds roles as a member does. */
export const createServiceAccountSchema = z.object({
  name: z
    .string({ error: "Name the service account" })
    .trim()
    .min(1, "Name the service account")
    .max(100, "A service account's name is at most 100 characters"),
  roles: z.array(roleGrantSchema).min(1, "Grant the service account at least one role"),
});
export type CreateServiceAccount = z.input<typeof createServiceAccountSchema>;

/** POST service-accounts/:id/tokens. */
export const createServiceAccountTokenSchema = z.object({ name: tokenName, expiresInDays });

/**
 * POST …/tokens/:id/regenerate: a new secret for the same name and permissions (or service account), with a new
 * expiry under the same rules; the old secret is revoked in the same change.
 */
export const regenerateApiTokenSchema = z.object({ expiresInDays });
export type RegenerateApiToken = z.input<typeof regenerateApiTokenSchema>;

/** A token as listed: never its value, only its last characters to recognise it by. */
export const apiTokenSchema = z.object({
  id: z.string(),
  name: z.string(),
  /** `ccp_…` and the token's last four characters. */
  hint: z.string(),
  /** The permissions a personal token is narrowed to; null when it holds all its owner's. */
  permissions: z.array(permissionSchema).nullable(),
  createdAt: z.string(),
  expiresAt: z.string(),
  lastUsedAt: z.string().nullable(),
  lastUsedAddress: z.string().nullable(),
});
export type ApiToken = z.infer<typeof apiTokenSchema>;

export const apiTokenListSchema = z.object({ tokens: z.array(apiTokenSchema) });

/** The answer to a creation: the only time the token's value is shown. */
export const createdApiTokenSchema = z.object({ token: apiTokenSchema, value: z.string() });
export type CreatedApiToken = z.infer<typeof createdApiTokenSchema>;

export const serviceAccountSchema = z.object({
  id: z.string(),
  name: z.string(),
  roles: z.array(
    z.object({
      role: z.string().nullable(),
      customRole: z.object({ id: z.string(), name: z.string() }).nullable(),
      environmentIds: z.array(z.string()).nullable(),
    }),
  ),
  createdAt: z.string(),
  tokens: z.array(apiTokenSchema),
});
export type ServiceAccount = z.infer<typeof serviceAccountSchema>;
export const serviceAccountListSchema = z.object({ serviceAccounts: z.array(serviceAccountSchema) });

/** GET api-tokens/current: who a token speaks for, so a client holding only a token finds its organization. */
export const currentApiTokenSchema = z.object({
  tenantId: z.string(),
  organizationName: z.string(),
  token: apiTokenSchema,
  /** The service account's name, or null for a personal token. */
  serviceAccount: z.string().nullable(),
});
export type CurrentApiToken = z.infer<typeof currentApiTokenSchema>;

export const apiTokenPaths = {
  personal: (tenantId: string) => `/v2/organizations/${tenantId}/api-tokens`,
  personalToken: (tenantId: string, tokenId: string) => `/v2/organizations/${tenantId}/api-tokens/${tokenId}`,
  personalTokenRegenerate: (tenantId: string, tokenId: string) =>
    `/v2/organizations/${tenantId}/api-tokens/${tokenId}/regenerate`,
  serviceAccounts: (tenantId: string) => `/v2/organizations/${tenantId}/service-accounts`,
  serviceAccount: (tenantId: string, id: string) => `/v2/organizations/${tenantId}/service-accounts/${id}`,
  serviceAccountTokens: (tenantId: string, id: string) =>
    `/v2/organizations/${tenantId}/service-accounts/${id}/tokens`,
  serviceAccountToken: (tenantId: string, id: string, tokenId: string) =>
    `/v2/organizations/${tenantId}/service-accounts/${id}/tokens/${tokenId}`,
  serviceAccountTokenRegenerate: (tenantId: string, id: string, tokenId: string) =>
    `/v2/organizations/${tenantId}/service-accounts/${id}/tokens/${tokenId}/regenerate`,
  current: "/api-tokens/current",
} as const;
