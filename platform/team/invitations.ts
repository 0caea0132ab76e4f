import { createHash, randomBytes } from "node:crypto";
import { and, desc, eq, gt, inArray, isNull, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import {
  INVITATION_TTL_DAYS,
  type Invitation,
  type InvitationPreview,
  type InvitationStatus,
  invitationErrorCodes,
} from "#contract/invitations";
import type { RoleGrant } from "#contract/permissions";
import type { Database } from "../db/index";
import { customRoles, environments, invitations, memberships, organizations, users } from "../db/schema";
import { DomainError, conflict, invalidFields, notFound } from "../lib/errors";
import { assertRoomForInvitations } from "../plans/limits";
import { takeInvitationSends } from "./invitation-limits";
import { addMember } from "./members";

type InvitationRow = typeof invitations.$inferSelect;
type StoredGrant = InvitationRow["grants"][number];

const DAY_MS = 24 * 60 * 60 * 1000;

/** A fresh token for a link (32 random bytes, base64url) and the only thing the database keeps of it. */
export function newInvitationToken(): { token: string; tokenHash: string } {
  const token = randomBytes(32).toString("base64url");
  return { token, tokenHash: hashInvitationToken(token) };
}

export function hashInvitationToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

export function invitationStatus(row: InvitationRow, now: Date): InvitationStatus {
  if (row.acceptedAt) return "accepted";
  if (row.cancelledAt) return "cancelled";
  return row.expiresAt.getTime() <= now.getTime() ? "expired" : "pending";
}

function expiryFrom(now: Date): Date {
  return new Date(now.getTime() + INVITATION_TTL_DAYS * DAY_MS);
}

/** An open invitation has been neither accepted nor cancelled; it may have expired (a re-send revives it). */
const isOpen = and(isNull(invitations.acceptedAt), isNull(invitations.cancelledAt));

const inviters = alias(users, "inviters");

/** The organization's invitations, newest first (one address only when `email` is given), as the API lists them. */
export async function listInvitations(
  db: Database,
  organizationId: string,
  { email, now = new Date() }: { email?: string; now?: Date } = {},
): Promise<Invitation[]> {
  const rows = await db
    .select({ invitation: invitations, inviter: { name: inviters.name, email: inviters.email } })
    .from(invitations)
    .leftJoin(inviters, eq(inviters.id, invitations.invitedBy))
    .where(
      and(
        eq(invitations.organizationId, organizationId),
        email === undefined ? undefined : eq(invitations.email, email),
      ),
    )
    .orderBy(desc(invitations.createdAt), desc(invitations.id));
  return rows.map(({ invitation, inviter }) => present(invitation, inviter, now));
}

function present(row: InvitationRow, inviter: { name: string; email: string } | null, now: Date): Invitation {
  return {
    id: row.id,
    email: row.email,
    grants: row.grants as RoleGrant[],
    status: invitationStatus(row, now),
    invitedBy: inviter,
    createdAt: row.createdAt.toISOString(),
    sentAt: row.sentAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
    acceptedAt: row.acceptedAt?.toISOString() ?? null,
    cancelledAt: row.cancelledAt?.toISOString() ?? null,
  };
}

/** An invitation just written, with the token of its link (never stored in clear). */
export type IssuedInvitation = { invitation: Invitation; token: string };

type Inviter = { id: string; name: string; email: string };

/**
 * Invites each address with `grants`, in one transaction: every address and grant is checked first, so a bad
 * one stores nothing. An address with an open invitation gets it re-sent with the new grants (new link, new
 * expiry) rather than a second one; an address that is already a member is refused (409 on its field); a batch
 * that would pass an invitation limit is refused whole (InvitationLimitError).
 */
export async function inviteAll(
  db: Database,
  {
    organization,
    tenantId,
    inviter,
    emails,
    grants,
    now = new Date(),
  }: {
    organization: string;
    tenantId: string;
    inviter: Inviter;
    emails: string[];
    grants: RoleGrant[];
    now?: Date;
  },
): Promise<IssuedInvitation[]> {
  const addresses = [...new Set(emails)];
  await checkGrants(db, { organizationId: organization, tenantId, grants });
  return db.transaction(async (tx) => {
    const members = await tx
      .select({ email: sql<string>`lower(${users.email})` })
      .from(memberships)
      .innerJoin(users, eq(users.id, memberships.userId))
      .where(
        and(eq(memberships.organizationId, organization), inArray(sql`lower(${users.email})`, addresses)),
      );
    if (members.length > 0) {
      const memberEmails = new Set(members.map((member) => member.email));
      const fieldErrors: Record<string, string[]> = {};
      emails.forEach((email, index) => {
        if (memberEmails.has(email))
          fieldErrors[`emails.${index}`] = [`${email} is already a member of this organization`];
      });
      throw conflict(Object.values(fieldErrors)[0]?.[0] ?? "Already a member", fieldErrors);
    }
    // An address whose invitation is still open and unexpired is re-sent: it adds no one to the plan's count.
    const pending = await tx
      .select({ email: invitations.email })
      .from(invitations)
      .where(
        and(
          eq(invitations.organizationId, organization),
          inArray(invitations.email, addresses),
          isOpen,
          gt(invitations.expiresAt, now),
        ),
      );
    await assertRoomForInvitations(tx, {
      organizationId: organization,
      adding: addresses.length - pending.length,
      now,
    });
    await takeInvitationSends(tx, { organizationId: organization, emails: addresses, now });
    const stored: StoredGrant[] = grants.map(storedGrant);
    const issued: IssuedInvitation[] = [];
    for (const email of addresses) {
      const { token, tokenHash } = newInvitationToken();
      const fresh = {
        tokenHash,
        grants: stored,
        invitedBy: inviter.id,
        sentAt: now,
        expiresAt: expiryFrom(now),
      };
      const [reissued] = await tx
        .update(invitations)
        .set(fresh)
        .where(and(eq(invitations.organizationId, organization), eq(invitations.email, email), isOpen))
        .returning();
      const row =
        reissued ??
        (
          await tx
            .insert(invitations)
            .values({ organizationId: organization, email, ...fresh, createdAt: now })
            .returning()
        )[0];
      if (!row) throw new Error("invitation was not stored");
      issued.push({ invitation: present(row, inviter, now), token });
    }
    return issued;
  });
}

function storedGrant(grant: RoleGrant): StoredGrant {
  return {
    ...(grant.role ? { role: grant.role } : {}),
    ...(grant.customRoleId ? { customRoleId: grant.customRoleId } : {}),
    environmentIds: grant.environmentIds,
  };
}

/** Environments and custom roles named by grants must be the organization's own: 400 on the field otherwise. */
async function checkGrants(
  db: Database,
  { organizationId, tenantId, grants }: { organizationId: string; tenantId: string; grants: RoleGrant[] },
) {
  const environmentIds = [...new Set(grants.flatMap((grant) => grant.environmentIds ?? []))];
  const customRoleIds = [
    ...new Set(grants.flatMap((grant) => (grant.customRoleId ? [grant.customRoleId] : []))),
  ];
  const [ownEnvironments, ownRoles] = await Promise.all([
    environmentIds.length
      ? db
          .select({ id: environments.id })
          .from(environments)
          .where(and(eq(environments.tenantId, tenantId), inArray(environments.id, environmentIds)))
      : [],
    customRoleIds.length
      ? db
          .select({ id: customRoles.id })
          .from(customRoles)
          .where(and(eq(customRoles.organizationId, organizationId), inArray(customRoles.id, customRoleIds)))
      : [],
  ]);
  const knownEnvironments = new Set(ownEnvironments.map((row) => row.id));
  const knownRoles = new Set(ownRoles.map((row) => row.id));
  const fieldErrors: Record<string, string[]> = {};
  grants.forEach((grant, index) => {
    if (grant.customRoleId && !knownRoles.has(grant.customRoleId))
      fieldErrors[`grants.${index}.customRoleId`] = ["No such role in this organization"];
    grant.environmentIds?.forEach((id, position) => {
      if (!knownEnvironments.has(id))
        fieldErrors[`grants.${index}.environmentIds.${position}`] = [
          "No such environment in this organization",
        ];
    });
  });
  if (Object.keys(fieldErrors).length) throw invalidFields(fieldErrors);
}

function noOpenInvitation(email: string): DomainError {
  return notFound(`There is no open invitation for ${email}`);
}

/**
 * A new link and a new expiry for the address's open invitation; its previous link stops working. A re-send counts
 * against the invitation limits like a new invitation.
 */
export async function reissueInvitation(
  db: Database,
  {
    organizationId,
    email,
    inviter,
    now = new Date(),
  }: { organizationId: string; email: string; inviter: Inviter; now?: Date },
): Promise<IssuedInvitation> {
  const { token, tokenHash } = newInvitationToken();
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(invitations)
      .set({ tokenHash, invitedBy: inviter.id, sentAt: now, expiresAt: expiryFrom(now) })
      .where(and(eq(invitations.organizationId, organizationId), eq(invitations.email, email), isOpen))
      .returning();
    if (!row) throw noOpenInvitation(email);
    await takeInvitationSends(tx, { organizationId, emails: [email], now });
    return { invitation: present(row, inviter, now), token };
  });
}

/** Ends the address's open invitation: its link stops working. */
export async function cancelInvitation(
  db: Database,
  { organizationId, email, now = new Date() }: { organizationId: string; email: string; now?: Date },
): Promise<Invitation> {
  const [row] = await db
    .update(invitations)
    .set({ cancelledAt: now })
    .where(and(eq(invitations.organizationId, organizationId), eq(invitations.email, email), isOpen))
    .returning();
  if (!row) throw noOpenInvitation(email);
  const [inviter] = row.invitedBy
    ? await db.select({ name: users.name, email: users.email }).from(users).where(eq(users.id, row.invitedBy))
    : [];
  return present(row, inviter ?? null, now);
}

/** The signed-in user trying a link: their id and address. */
type Invitee = { id: string; email: string };

const invitationMessages = {
  unknown: "This invitation link is not valid. Check that you copied all of it, or ask for a new invitation.",
  accepted: "This invitation has already been accepted. Each invitation link works once.",
  cancelled: "This invitation was cancelled. Ask the person who invited you for a new one.",
  expired: (at: Date) =>
    `This invitation expired on ${at.toISOString().slice(0, 10)}. Ask the person who invited you to send it again.`,
  otherAddress: (email: string) =>
    `This invitation is for ${email}. Sign out and sign in (or sign up) as ${email} to accept it.`,
};

/**
 * The invitation behind a token, usable by `invitee` (anyone holding the link when none is given): 404 for an
 * unknown token, 410 for one accepted, cancelled or expired, 403 naming the invited address when signed in as
 * another one (the link's holder knows that much, as the mail says it).
 */
async function usableInvitation(
  db: Database,
  token: string,
  invitee: Invitee | undefined,
  now: Date,
  lock: boolean,
) {
  const query = db
    .select({ invitation: invitations, organization: organizations, inviterName: inviters.name })
    .from(invitations)
    .innerJoin(organizations, eq(organizations.id, invitations.organizationId))
    .leftJoin(inviters, eq(inviters.id, invitations.invitedBy))
    .where(eq(invitations.tokenHash, hashInvitationToken(token)));
  const [found] = lock ? await query.for("update", { of: invitations }) : await query;
  if (!found) throw gone("not-found", invitationErrorCodes.unknown, invitationMessages.unknown);
  const { invitation } = found;
  const status = invitationStatus(invitation, now);
  if (status === "accepted") throw gone("gone", invitationErrorCodes.accepted, invitationMessages.accepted);
  if (status === "cancelled")
    throw gone("gone", invitationErrorCodes.cancelled, invitationMessages.cancelled);
  if (status === "expired")
    throw gone("gone", invitationErrorCodes.expired, invitationMessages.expired(invitation.expiresAt));
  if (invitee && invitee.email.trim().toLowerCase() !== invitation.email)
    throw gone(
      "forbidden",
      invitationErrorCodes.otherAddress,
      invitationMessages.otherAddress(invitation.email),
    );
  return found;
}

function gone(kind: "forbidden" | "not-found" | "gone", code: string, message: string): DomainError {
  return new DomainError(kind, { message, code });
}

/**
 * What the link's holder sees before joining, signed in as `invitee` or not signed in yet: what the mail says,
 * and the roles.
 */
export async function previewInvitation(
  db: Database,
  { token, invitee, now = new Date() }: { token: string; invitee?: Invitee; now?: Date },
): Promise<InvitationPreview> {
  const { invitation, organization, inviterName } = await usableInvitation(db, token, invitee, now, false);
  return {
    email: invitation.email,
    organization: { displayName: organization.displayName },
    invitedBy: inviterName,
    roles: await describeInvitedRoles(db, organization.id, invitation.grants),
    expiresAt: invitation.expiresAt.toISOString(),
  };
}

/**
 * "admin", "developer on 2 environments": the environments are counted, not named, since their names are the
 * organization's business until the invitee joins. A custom role deleted since is left out, as accepting does.
 */
async function describeInvitedRoles(db: Database, organizationId: string, grants: StoredGrant[]) {
  const customRoleIds = grants.flatMap((grant) => (grant.customRoleId ? [grant.customRoleId] : []));
  const customRoleNames = new Map(
    customRoleIds.length
      ? (
          await db
            .select({ id: customRoles.id, name: customRoles.name })
            .from(customRoles)
            .where(
              and(eq(customRoles.organizationId, organizationId), inArray(customRoles.id, customRoleIds)),
            )
        ).map((role) => [role.id, role.name])
      : [],
  );
  return grants.flatMap((grant) => {
    const role = grant.customRoleId ? customRoleNames.get(grant.customRoleId) : grant.role;
    if (!role) return [];
    const count = grant.environmentIds?.length;
    return [count === undefined ? role : `${role} on ${count} environment${count === 1 ? "" : "s"}`];
  });
}

/**
 * Joins the organization with the invitation's grants and spends the token, in one transaction (the row is
 * locked, so two tabs cannot both accept). Custom roles deleted since the invitation are left out.
 */
export async function acceptInvitation(
  db: Database,
  { token, invitee, now = new Date() }: { token: string; invitee: Invitee; now?: Date },
) {
  return db.transaction(async (tx) => {
    const { invitation, organization } = await usableInvitation(tx, token, invitee, now, true);
    const [membership] = await tx
      .select({ userId: memberships.userId })
      .from(memberships)
      .where(and(eq(memberships.organizationId, organization.id), eq(memberships.userId, invitee.id)));
    if (membership) {
      throw new DomainError("conflict", {
        message: `You are already a member of ${organization.displayName}.`,
        code: invitationErrorCodes.alreadyMember,
      });
    }
    const customRoleIds = invitation.grants.flatMap((grant) =>
      grant.customRoleId ? [grant.customRoleId] : [],
    );
    const liveRoles = new Set(
      customRoleIds.length
        ? (
            await tx
              .select({ id: customRoles.id })
              .from(customRoles)
              .where(
                and(eq(customRoles.organizationId, organization.id), inArray(customRoles.id, customRoleIds)),
              )
          ).map((row) => row.id)
        : [],
    );
    const grants = invitation.grants
      .filter((grant) => !grant.customRoleId || liveRoles.has(grant.customRoleId))
      .map((grant) => ({
        role: grant.role as RoleGrant["role"],
        customRoleId: grant.customRoleId,
        environmentIds: grant.environmentIds,
      }));
    await addMember(tx, { userId: invitee.id, organizationId: organization.id, grants });
    await tx
      .update(invitations)
      .set({ acceptedAt: now, acceptedBy: invitee.id })
      .where(eq(invitations.id, invitation.id));
    return {
      organization: {
        id: organization.id,
        tenantId: organization.tenantId,
        name: organization.name,
        displayName: organization.displayName,
      },
    };
  });
}

/** The invitation mail: who invites, to what, the link and until when. */
export function invitationMail({
  to,
  organizationName,
  inviterName,
  link,
  expiresAt,
}: {
  to: string;
  organizationName: string;
  inviterName: string;
  link: string;
  expiresAt: string;
}) {
  const until = expiresAt.slice(0, 10);
  return {
    to,
    subject: `${inviterName} invited you to join ${organizationName} on Cloud Console`,
    text: [
      `${inviterName} invited you to join ${organizationName} on Cloud Console.`,
      "",
      `Accept the invitation (sign in or create an account as ${to}):`,
      link,
      "",
      `The link works once and expires on ${until}.`,
    ].join("\n"),
  };
}
