import * as z from "zod";
import { apiTokenDayChoices, DEFAULT_API_TOKEN_DAYS, MAX_API_TOKEN_DAYS } from "#contract/api-tokens";
import { permissionSchema } from "#contract/permissions";

export const expiryChoices = apiTokenDayChoices.map((days) => ({
  value: String(days),
  label: days === MAX_API_TOKEN_DAYS ? "1 year" : `${days} days`,
}));

const tokenName = z
  .string({ error: "Name the token" })
  .trim()
  .min(1, "Name the token")
  .max(100, "A token's name is at most 100 characters");

/** One of the offered expiries, as the select submits it; the action turns it into days. */
const expiresInDays = z
  .enum(apiTokenDayChoices.map(String) as [string, ...string[]], { error: "Choose when the token expires" })
  .default(String(DEFAULT_API_TOKEN_DAYS));

/** Creating a personal token: no permission ticked keeps all the member's own. */
export const createTokenFormSchema = z.object({
  intent: z.literal("create"),
  name: tokenName,
  expiresInDays,
  permissions: z.array(permissionSchema).optional(),
});

export const revokeTokenFormSchema = z.object({
  intent: z.literal("revoke"),
  tokenId: z.string({ error: "Choose the token to revoke" }),
  tokenName: z.string().default("The token"),
});

/** Regenerating asks only for the new secret's expiry: the name and permissions stay the token's. */
export const regenerateTokenFormSchema = z.object({
  intent: z.literal("regenerate"),
  tokenId: z.string({ error: "Choose the token to regenerate" }),
  tokenName: z.string().default("The token"),
  expiresInDays,
});

export const personalTokenFormSchema = z.discriminatedUnion("intent", [
  createTokenFormSchema,
  revokeTokenFormSchema,
  regenerateTokenFormSchema,
]);

/** The service accounts page's forms. */
export const createServiceAccountFormSchema = z.object({
  intent: z.literal("create-account"),
  name: z
    .string({ error: "Name the service account" })
    .trim()
    .min(1, "Name the service account")
    .max(100, "A service account's name is at most 100 characters"),
  role: z.enum(["admin", "developer", "read-only"], { error: "Choose a role" }),
  /** None ticked: the role on the whole organization. */
  environmentIds: z.array(z.string()).optional(),
});

export const createAccountTokenFormSchema = z.object({
  intent: z.literal("create-token"),
  serviceAccountId: z.string({ error: "Choose the service account" }),
  name: tokenName,
  expiresInDays,
});

export const revokeAccountTokenFormSchema = z.object({
  intent: z.literal("revoke-token"),
  serviceAccountId: z.string({ error: "Choose the service account" }),
  tokenId: z.string({ error: "Choose the token to revoke" }),
  tokenName: z.string().default("The token"),
});

export const regenerateAccountTokenFormSchema = z.object({
  intent: z.literal("regenerate-token"),
  serviceAccountId: z.string({ error: "Choose the service account" }),
  tokenId: z.string({ error: "Choose the token to regenerate" }),
  tokenName: z.string().default("The token"),
  expiresInDays,
});

export const deleteServiceAccountFormSchema = z.object({
  intent: z.literal("delete-account"),
  serviceAccountId: z.string({ error: "Choose the service account" }),
  name: z.string().default("The service account"),
});

export const serviceAccountFormSchema = z.discriminatedUnion("intent", [
  createServiceAccountFormSchema,
  createAccountTokenFormSchema,
  revokeAccountTokenFormSchema,
  regenerateAccountTokenFormSchema,
  deleteServiceAccountFormSchema,
]);
