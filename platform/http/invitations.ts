import { Hono, type Context } from "hono";
import {
  acceptedInvitationSchema,
  acceptInvitationUrl,
  cancelledInvitationSchema,
  createInvitationsSchema,
  createInvitationV1Schema,
  invitationEmailQuerySchema,
  invitationErrorCodes,
  invitationListSchema,
  invitationPreviewSchema,
  invitationTargetSchema,
  invitationTokenSchema,
  sentInvitationSchema,
  sentInvitationsSchema,
  type SentInvitation,
} from "#contract/invitations";
import type { RoleGrant } from "#contract/permissions";
import type { PlatformConfig } from "../lib/config";
import type { Database } from "../db/index";
import { createMailer, type Mailer } from "../lib/mail/mailer";
import { InvitationLimitError } from "../team/invitation-limits";
import {
  acceptInvitation,
  cancelInvitation,
  invitationMail,
  inviteAll,
  listInvitations,
  previewInvitation,
  reissueInvitation,
  type IssuedInvitation,
} from "../team/invitations";
import { currentUser, type AuthenticatedEnv } from "./auth";
import { HttpError } from "./errors";
import { permit, signedIn } from "./permissions";
import { currentOrganization, type OrganizationEnv } from "./tenancy";
import { readJsonBody, readQuery, sendJson } from "./validation";
import { documentRoutes } from "./documented";

type Dependencies = { db: Database; config: Pick<PlatformConfig, "appUrl" | "mail">; mailer?: Mailer };

/** SPEC §7 Users' invitations, mounted at /v2/organizations/:tenantId. */
export function invitationRoutes({ db, config, mailer = createMailer(config.mail) }: Dependencies) {
  const routes = new Hono<OrganizationEnv>();

  /**
   * Mails each invitation's link. Without SMTP (or when the server refuses) the answer carries the link, once,
   * for the admin to pass on; the mailer logs that no mail was sent.
   */
  async function send(c: Context<OrganizationEnv>, issued: IssuedInvitation): Promise<SentInvitation> {
    const { displayName } = currentOrganization(c);
    const inviter = currentUser(c);
    const link = acceptInvitationUrl(config.appUrl, issued.token);
    const result = await mailer.send(
      invitationMail({
        to: issued.invitation.email,
        organizationName: displayName,
        inviterName: inviter.name,
        link,
        expiresAt: issued.invitation.expiresAt,
      }),
    );
    return {
      invitation: issued.invitation,
      mail: result.delivered ? { delivered: true } : { delivered: false, reason: result.reason, link },
    };
  }

  async function invite(c: Context<OrganizationEnv>, emails: string[], grants: RoleGrant[]) {
    const { organizationId, tenantId } = currentOrganization(c);
    const issued = await withinLimits(() =>
      db.transaction((tx) =>
        inviteAll(tx, { organization: organizationId, tenantId, inviter: currentUser(c), emails, grants }),
      ),
    );
    const invitations = await Promise.all(issued.map((one) => send(c, one)));
    return sendJson(c, sentInvitationsSchema, { invitations }, 201);
  }

  const list = async (c: Context<OrganizationEnv>) => {
    const { email } = readQuery(c, invitationEmailQuerySchema);
    const invitations = await listInvitations(db, currentOrganization(c).organizationId, { email });
    return sendJson(c, invitationListSchema, { invitations });
  };

  // Members see who is invited, as they see who is a member; links and hashes never leave.
  routes.get("/users/invites", permit("organization.view"), list);
  routes.get("/users/v2/invites", permit("organization.view"), list);

  routes.post("/users/invites", permit("users.manage"), async (c) => {
    const { email, role } = await readJsonBody(c, createInvitationV1Schema);
    return invite(c, [email], [{ role, environmentIds: null }]);
  });

  routes.post("/users/v2/invites", permit("users.manage"), async (c) => {
    const { emails, grants } = await readJsonBody(c, createInvitationsSchema);
    return invite(c, emails, grants);
  });

  routes.post("/users/v2/invites/reinvite", permit("users.manage"), async (c) => {
    const { email } = await readJsonBody(c, invitationTargetSchema);
    const issued = await withinLimits(() =>
      db.transaction((tx) =>
        reissueInvitation(tx, {
          organizationId: currentOrganization(c).organizationId,
          email,
          inviter: currentUser(c),
        }),
      ),
    );
    return sendJson(c, sentInvitationSchema, await send(c, issued));
  });

  routes.delete("/users/v2/invites", permit("users.manage"), async (c) => {
    const { email } = readQuery(c, invitationTargetSchema);
    const invitation = await db.transaction((tx) =>
      cancelInvitation(tx, { organizationId: currentOrganization(c).organizationId, email }),
    );
    return sendJson(c, cancelledInvitationSchema, { invitation });
  });

  documentRoutes(routes, {
    "GET /users/invites": { query: invitationEmailQuerySchema, responses: { 200: invitationListSchema } },
    "GET /users/v2/invites": { query: invitationEmailQuerySchema, responses: { 200: invitationListSchema } },
    "POST /users/invites": { body: createInvitationV1Schema, responses: { 201: sentInvitationsSchema } },
    "POST /users/v2/invites": { body: createInvitationsSchema, responses: { 201: sentInvitationsSchema } },
    "POST /users/v2/invites/reinvite": {
      body: invitationTargetSchema,
      responses: { 200: sentInvitationSchema },
    },
    "DELETE /users/v2/invites": {
      query: invitationTargetSchema,
      responses: { 200: cancelledInvitationSchema },
    },
  });
  return routes;
}

/** An invitation limit reached is answered 429 with the limit's message and Retry-After (decision 045). */
async function withinLimits<T>(issue: () => Promise<T>): Promise<T> {
  try {
    return await issue();
  } catch (error) {
    if (!(error instanceof InvitationLimitError)) throw error;
    const seconds = Math.max(1, Math.ceil((error.retryAt.getTime() - Date.now()) / 1000));
    throw new HttpError(
      429,
      { message: error.message, code: invitationErrorCodes.limitReached },
      { "Retry-After": String(seconds) },
    );
  }
}

/**
 * Opening a link before signing in: its holder sees who invites which address to what, so they know whether to
 * sign in or sign up, and as whom. The token, 32 random bytes, is the only key; the answer holds no more than the
 * mail does, with the roles.
 */
export function invitationPreviewRoutes({ db }: { db: Database }) {
  const routes = new Hono();
  routes.post("/v2/invitations/preview", async (c) => {
    const { token } = await readJsonBody(c, invitationTokenSchema);
    return sendJson(c, invitationPreviewSchema, await previewInvitation(db, { token }));
  });
  documentRoutes(routes, {
    "POST /v2/invitations/preview": {
      body: invitationTokenSchema,
      responses: { 200: invitationPreviewSchema },
    },
  });
  return routes;
}

/** Opening and accepting an invitation link: outside any organization, for the signed-in invited address. */
export function invitationAcceptanceRoutes({ db }: { db: Database }) {
  const routes = new Hono<AuthenticatedEnv>();

  routes.post("/v2/invitations/lookup", signedIn(), async (c) => {
    const { token } = await readJsonBody(c, invitationTokenSchema);
    return sendJson(
      c,
      invitationPreviewSchema,
      await previewInvitation(db, { token, invitee: currentUser(c) }),
    );
  });

  routes.post("/v2/invitations/accept", signedIn(), async (c) => {
    const { token } = await readJsonBody(c, invitationTokenSchema);
    return sendJson(
      c,
      acceptedInvitationSchema,
      await acceptInvitation(db, { token, invitee: currentUser(c) }),
    );
  });

  documentRoutes(routes, {
    "POST /v2/invitations/lookup": {
      body: invitationTokenSchema,
      responses: { 200: invitationPreviewSchema },
    },
    "POST /v2/invitations/accept": {
      body: invitationTokenSchema,
      responses: { 200: acceptedInvitationSchema },
    },
  });
  return routes;
}
