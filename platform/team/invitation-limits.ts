import { and, asc, eq, gt, inArray, sql } from "drizzle-orm";
import type { Database } from "../db/index";
import { invitationSends, organizations } from "../db/schema";

const HOUR_S = 60 * 60;
const DAY_S = 24 * HOUR_S;

type Limit = { count: number; windowSeconds: number; period: string };

/**
 * How many invitation links (new invitations and re-sends alike) may go out, decision 045. With open sign-up anyone
 * can make an organization, so these keep the product's mail server from mailing arbitrary addresses: a team
 * inviting its people stays far below them (one full form is 50 addresses), a spammer does not.
 */
export const INVITATION_LIMITS = {
  /** Per organization: the hour's limit stops a burst, the day's a steady drip. */
  organization: [
    { count: 50, windowSeconds: HOUR_S, period: "hour" },
    { count: 200, windowSeconds: DAY_S, period: "24 hours" },
  ],
  /** Per recipient address, across every organization: an invitation and two re-sends a day. */
  address: { count: 3, windowSeconds: DAY_S, period: "24 hours" },
} satisfies { organization: Limit[]; address: Limit };

/** A send refused by a limit: the message names the limit and when to try again. */
export class InvitationLimitError extends Error {
  constructor(
    message: string,
    readonly retryAt: Date,
  ) {
    super(message);
    this.name = "InvitationLimitError";
  }
}

/**
 * Counts one send to each address against the organization's and the addresses' limits, in the caller's
 * transaction, or throws InvitationLimitError and counts nothing. The sends are rows in the database, so the
 * limits survive restarts and hold across platform processes: the organization's row and an advisory lock per
 * address (taken in a fixed order, so two transactions cannot wait for each other) make concurrent senders count
 * one after the other.
 */
export async function takeInvitationSends(
  tx: Database,
  { organizationId, emails, now }: { organizationId: string; emails: string[]; now: Date },
): Promise<void> {
  const addresses = [...new Set(emails)].sort();
  await tx
    .select({ id: organizations.id })
    .from(organizations)
    .where(eq(organizations.id, organizationId))
    .for("update");
  for (const email of addresses) {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`invitation-address:${email}`}))`);
  }

  for (const limit of INVITATION_LIMITS.organization) {
    const sent = await tx
      .select({ sentAt: invitationSends.sentAt })
      .from(invitationSends)
      .where(
        and(
          eq(invitationSends.organizationId, organizationId),
          gt(invitationSends.sentAt, windowStart(limit, now)),
        ),
      )
      .orderBy(asc(invitationSends.sentAt));
    const retryAt = retryAtFor(limit, sent, addresses.length);
    if (retryAt) {
      const over =
        sent.length >= limit.count
          ? "the most allowed"
          : `${addresses.length} more would pass the limit of ${limit.count}`;
      throw new InvitationLimitError(
        `This organization has sent ${sent.length} invitations in the last ${limit.period}, ${over}. ${tryAgain(retryAt, now)}`,
        retryAt,
      );
    }
  }

  const { address: limit } = INVITATION_LIMITS;
  const sentToAddresses = addresses.length
    ? await tx
        .select({ email: invitationSends.email, sentAt: invitationSends.sentAt })
        .from(invitationSends)
        .where(
          and(inArray(invitationSends.email, addresses), gt(invitationSends.sentAt, windowStart(limit, now))),
        )
        .orderBy(asc(invitationSends.sentAt))
    : [];
  const refused = addresses.flatMap((email) => {
    const sent = sentToAddresses.filter((row) => row.email === email);
    const retryAt = retryAtFor(limit, sent, 1);
    return retryAt ? [{ email, sent: sent.length, retryAt }] : [];
  });
  const [first] = refused;
  if (first) {
    const retryAt = new Date(Math.max(...refused.map((one) => one.retryAt.getTime())));
    const others = refused.length > 1 ? ` (and ${refused.length - 1} other addresses)` : "";
    throw new InvitationLimitError(
      `${first.email}${others} has been sent ${first.sent} invitations in the last ${limit.period}, the most allowed for one address. ${tryAgain(retryAt, now)}`,
      retryAt,
    );
  }

  if (addresses.length) {
    await tx
      .insert(invitationSends)
      .values(addresses.map((email) => ({ organizationId, email, sentAt: now })));
  }
}

function windowStart(limit: Limit, now: Date): Date {
  return new Date(now.getTime() - limit.windowSeconds * 1000);
}

/**
 * When `wanted` more sends fit under `limit`, given the window's sends oldest first: once enough of the oldest
 * have left the window. Undefined when they fit now.
 */
function retryAtFor(limit: Limit, sent: { sentAt: Date }[], wanted: number): Date | undefined {
  const leaving = sent.length + wanted - limit.count;
  if (leaving <= 0) return undefined;
  const last = sent[Math.min(leaving, sent.length) - 1];
  const from = last?.sentAt ?? new Date();
  return new Date(from.getTime() + limit.windowSeconds * 1000);
}

/** "Try again in 50 minutes." Minutes up to an hour and a half, hours beyond, always rounded up. */
function tryAgain(retryAt: Date, now: Date): string {
  const seconds = Math.max(1, Math.ceil((retryAt.getTime() - now.getTime()) / 1000));
  const minutes = Math.ceil(seconds / 60);
  const hours = Math.ceil(seconds / HOUR_S);
  const wait =
    minutes <= 90 ? `${minutes} minute${minutes === 1 ? "" : "s"}` : `${hours} hour${hours === 1 ? "" : "s"}`;
  return `Try again in ${wait}.`;
}
