import * as z from "zod";
import { roleGrantSchema, roleNameSchema } from "./permissions";
import { messages, servicePatterns } from "./validation";

/** SPEC §7 Users: invitations, under /v2/organizations/{t}/ (issue 12); accepting one is outside any tenant. */
const organization = (tenantId: string) => `/v2/organizations/${encodeURIComponent(tenantId)}`;

export const invitationPaths = {
  /** GET (optional ?email=), POST one address with a role on the whole organization (v1, over v2's code). */
  v1: (tenantId: string) => `${organization(tenantId)}/users/invites`,
  /** GET (optional ?email=), POST several addresses with grants, DELETE ?email= cancels the open invitation. */
  list: (tenantId: string) => `${organization(tenantId)}/users/v2/invites`,
  /** DELETE: cancels the address's open invitation. */
  cancel: (tenantId: string, email: string) =>
    `${organization(tenantId)}/users/v2/invites?${new URLSearchParams({ email })}`,
  /** POST { email }: a new link and expiry for the open invitation; the old link dies. */
  reinvite: (tenantId: string) => `${organization(tenantId)}/users/v2/invites/reinvite`,
  /** POST { token }: what the invitation's holder may know before joining (signed in as the invited address). */
  lookup: () => "/v2/invitations/lookup",
  /** POST { token }, no sign-in: the same preview for the link's holder before signing in or up. */
  preview: () => "/v2/invitations/preview",
  /** POST { token }: joins the organization. */
  accept: () => "/v2/invitations/accept",
};

/** The app's page an invitation mail links to; the token travels in the query. */
export const ACCEPT_INVITATION_PATH = "/invitations/accept";
export function acceptInvitationUrl(appUrl: string, token: string): string {
  return `${appUrl}${ACCEPT_INVITATION_PATH}?${new URLSearchParams({ token })}`;
}

export const INVITATION_TTL_DAYS = 7;
/** Enough for a team at once; each address gets its own mail. */
export const MAX_INVITATIONS_PER_REQUEST = 50;

/** Addresses are compared and stored lowercased, as the identity provider compares sign-in addresses. */
export const invitationEmailSchema = z
  .string({ error: messages.required("Email") })
  .trim()
  .min(1, { error: messages.required("Email"), abort: true })
  .max(254, `Email ${messages.max(254)}`)
  .regex(servicePatterns.email.regex, `Email ${messages.email}`)
  .transform((email) => email.toLowerCase());

export const createInvitationsSchema = z.object({
  emails: z
    .array(invitationEmailSchema, { error: "emails must list the addresses to invite" })
    .min(1, "List at least one address")
    .max(MAX_INVITATIONS_PER_REQUEST, `Invite at most ${MAX_INVITATIONS_PER_REQUEST} addresses at once`),
  grants: z
    .array(roleGrantSchema, { error: "grants must list the roles to give" })
    .min(1, "Give at least one role"),
});
export type CreateInvitations = z.input<typeof createInvitationsSchema>;

/** v1: one address and a built-in role on the whole organization. */
export const createInvitationV1Schema = z.object({ email: invitationEmailSchema, role: roleNameSchema });

export const invitationEmailQuerySchema = z.object({ email: invitationEmailSchema.optional() });
export const invitationTargetSchema = z.object({ email: invitationEmailSchema });

export const invitationStatuses = ["pending", "expired", "accepted", "cancelled"] as const;
export const invitationStatusSchema = z.enum(invitationStatuses);
export type InvitationStatus = z.infer<typeof invitationStatusSchema>;

/** An invitation as listed: never its token, nor the token's hash. */
export const invitationSchema = z.object({
  id: z.string(),
  email: z.string(),
  grants: z.array(roleGrantSchema),
  status: invitationStatusSchema,
  invitedBy: z.object({ name: z.string(), email: z.string() }).nullable(),
  createdAt: z.iso.datetime(),
  sentAt: z.iso.datetime(),
  expiresAt: z.iso.datetime(),
  acceptedAt: z.iso.datetime().nullable(),
  cancelledAt: z.iso.datetime().nullable(),
});
export type Invitation = z.infer<typeof invitationSchema>;

export const invitationListSchema = z.object({ invitations: z.array(invitationSchema) });

/**
 * A sent (or re-sent) invitation. When the mail could not go out, `link` carries the accept link once, for the
 * admin to pass on: the only time a token leaves the platform other than in the mail.
 */
export const sentInvitationSchema = z.object({
  invitation: invitationSchema,
  mail: z.discriminatedUnion("delivered", [
    z.object({ delivered: z.literal(true) }),
    z.object({ delivered: z.literal(false), reason: z.string(), link: z.url() }),
  ]),
});
export type SentInvitation = z.infer<typeof sentInvitationSchema>;

export const sentInvitationsSchema = z.object({ invitations: z.array(sentInvitationSchema) });

export const cancelledInvitationSchema = z.object({ invitation: invitationSchema });

/** A random 32-byte token in base64url. */
export const invitationTokenSchema = z.object({
  token: z
    .string({ error: "token is required" })
    .regex(/^[A-Za-z0-9_-]{43}$/, "This invitation link is not valid. Ask for a new invitation."),
});

/**
 * What the link's holder learns before joining: what the mail says (who invites which address to what, until
 * when) and the roles, without naming the environments they cover (those stay inside the organization).
 */
export const invitationPreviewSchema = z.object({
  email: z.string(),
  organization: z.object({ displayName: z.string() }),
  invitedBy: z.string().nullable(),
  /** "admin", "developer on 2 environments". */
  roles: z.array(z.string()),
  expiresAt: z.iso.datetime(),
});
export type InvitationPreview = z.infer<typeof invitationPreviewSchema>;

export const acceptedInvitationSchema = z.object({
  organization: z.object({ id: z.string(), tenantId: z.string(), name: z.string(), displayName: z.string() }),
});

/** Why an invitation cannot be accepted, beside the API's own codes (contract/errors.ts). */
export const invitationErrorCodes = {
  unknown: "INVITATION_UNKNOWN",
  expired: "INVITATION_EXPIRED",
  accepted: "INVITATION_ACCEPTED",
  cancelled: "INVITATION_CANCELLED",
  otherAddress: "INVITATION_FOR_OTHER_ADDRESS",
  alreadyMember: "INVITATION_ALREADY_MEMBER",
  /** 429: an invitation limit (decision 045); Retry-After says when to try again. */
  limitReached: "INVITATION_LIMIT_REACHED",
} as const;
