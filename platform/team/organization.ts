import { and, eq, isNull } from "drizzle-orm";
import type { OrganizationSettings } from "#contract/users";
import type { Database } from "../db/index";
import { organizations } from "../db/schema";

/** Why a referral was refused. */
export class ReferralError extends Error {
  constructor(
    readonly reason: "unknown-code" | "own-code" | "already-referred",
    message: string,
  ) {
    super(message);
    this.name = "ReferralError";
  }
}

const settingsColumns = {
  id: organizations.id,
  tenantId: organizations.tenantId,
  name: organizations.name,
  displayName: organizations.displayName,
  referralCode: organizations.referralCode,
  referredBy: organizations.referredBy,
  createdAt: organizations.createdAt,
};

function toSettings(
  row: { createdAt: Date } & Omit<OrganizationSettings, "createdAt">,
): OrganizationSettings {
  return { ...row, createdAt: row.createdAt.toISOString() };
}

export async function organizationSettings(db: Database, organizationId: string) {
  const [row] = await db
    .select(settingsColumns)
    .from(organizations)
    .where(eq(organizations.id, organizationId));
  if (!row) throw new Error(`organization ${organizationId} vanished`);
  return toSettings(row);
}

export async function renameOrganization(db: Database, organizationId: string, displayName: string) {
  const [row] = await db
    .update(organizations)
    .set({ displayName })
    .where(eq(organizations.id, organizationId))
    .returning(settingsColumns);
  if (!row) throw new Error(`organization ${organizationId} vanished`);
  return toSettings(row);
}

/**
 * Records the code another organization shared: once (the conditional update decides a race), never the
 * organization's own, and only a code some organization has.
 */
export async function recordReferral(db: Database, organizationId: string, code: string) {
  const [referrer] = await db
    .select({ id: organizations.id })
    .from(organizations)
    .where(eq(organizations.referralCode, code));
  if (!referrer) throw new ReferralError("unknown-code", "No organization has this referral code");
  if (referrer.id === organizationId) {
    throw new ReferralError("own-code", "An organization cannot use its own referral code");
  }
  const [row] = await db
    .update(organizations)
    .set({ referredBy: code })
    .where(and(eq(organizations.id, organizationId), isNull(organizations.referredBy)))
    .returning(settingsColumns);
  if (!row) throw new ReferralError("already-referred", "This organization has already used a referral code");
  return toSettings(row);
}
