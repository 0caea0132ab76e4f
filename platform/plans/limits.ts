import { and, count, eq, gt, isNull } from "drizzle-orm";
import { plans, type Plan, type PlanId } from "#contract/users";
import type { Database } from "../db/index";
import {
  environments,
  invitations,
  memberships,
  organizations,
  resources,
  serviceAccounts,
} from "../db/schema";
import { conflict } from "../lib/errors";
import { isPersonMembership } from "./people";

/**
 * The limits of an organization's plan, kept on every path that adds what they count (issue 25): the organization
 * page states them, so the platform refuses in the same words rather than let them be passed silently. Each check
 * runs in the transaction that adds, before the insert.
 */

const planOfId = (id: string): Plan => plans[id as PlanId] ?? plans.FREE;

/** The plan of the organization with this id. */
export async function planOf(db: Database, organizationId: string): Promise<Plan> {
  const [row] = await db
    .select({ plan: organizations.plan })
    .from(organizations)
    .where(eq(organizations.id, organizationId));
  return planOfId(row?.plan ?? plans.FREE.id);
}

async function planOfTenant(db: Database, tenantId: string): Promise<Plan> {
  const [row] = await db
    .select({ plan: organizations.plan })
    .from(organizations)
    .where(eq(organizations.tenantId, tenantId));
  return planOfId(row?.plan ?? plans.FREE.id);
}

const plural = (value: number, one: string, many: string) => `${value} ${value === 1 ? one : many}`;

/** Refuses a new environment (created, cloned or fastbooted) when the tenant has as many as its plan allows. */
export async function assertRoomForEnvironment(db: Database, tenantId: string): Promise<void> {
  const [plan, [row]] = await Promise.all([
    planOfTenant(db, tenantId),
    db.select({ value: count() }).from(environments).where(eq(environments.tenantId, tenantId)),
  ]);
  const has = row?.value ?? 0;
  const allowed = plan.limits.environments;
  if (has < allowed) return;
  throw conflict(
    `The ${plan.name} plan allows ${plural(allowed, "environment", "environments")}; this organization has ${has}. ` +
      "Upgrade the plan or delete an environment.",
  );
}

/** Refuses a new service in an environment that has as many as its organization's plan allows. */
export async function assertRoomForService(
  db: Database,
  environment: { id: string; name: string; tenantId: string },
): Promise<void> {
  const [plan, [row]] = await Promise.all([
    planOfTenant(db, environment.tenantId),
    db.select({ value: count() }).from(resources).where(eq(resources.environmentId, environment.id)),
  ]);
  const has = row?.value ?? 0;
  const allowed = plan.limits.servicesPerEnvironment;
  if (has < allowed) return;
  throw conflict(
    `The ${plan.name} plan allows ${plural(allowed, "service", "services")} per environment; ${environment.name} ` +
      `has ${has}. Upgrade the plan or delete a service.`,
  );
}

/**
 * Refuses invitations that would take the organization past its plan's members. Members are people: a service
 * account's membership takes no seat (it has its own limit). Open invitations count: each may become a member
 * without asking again.
 */
export async function assertRoomForInvitations(
  db: Database,
  { organizationId, adding, now }: { organizationId: string; adding: number; now: Date },
): Promise<void> {
  const [plan, [members], [open]] = await Promise.all([
    planOf(db, organizationId),
    db
      .select({ value: count() })
      .from(memberships)
      .where(and(eq(memberships.organizationId, organizationId), isPersonMembership)),
    db
      .select({ value: count() })
      .from(invitations)
      .where(
        and(
          eq(invitations.organizationId, organizationId),
          isNull(invitations.cancelledAt),
          isNull(invitations.acceptedAt),
          gt(invitations.expiresAt, now),
        ),
      ),
  ]);
  const has = (members?.value ?? 0) + (open?.value ?? 0);
  const allowed = plan.limits.members;
  if (has + adding <= allowed) return;
  throw conflict(
    `The ${plan.name} plan allows ${plural(allowed, "member", "members")}; this organization has ${has} with its ` +
      "open invitations. Upgrade the plan, or cancel an invitation or remove a member.",
  );
}

/** Refuses a new service account when the organization has as many as its plan allows. */
export async function assertRoomForServiceAccount(db: Database, organizationId: string): Promise<void> {
  const [plan, [row]] = await Promise.all([
    planOf(db, organizationId),
    db
      .select({ value: count() })
      .from(serviceAccounts)
      .where(eq(serviceAccounts.organizationId, organizationId)),
  ]);
  const has = row?.value ?? 0;
  const allowed = plan.limits.serviceAccounts;
  if (has < allowed) return;
  throw conflict(
    `The ${plan.name} plan allows ${plural(allowed, "service account", "service accounts")}; this organization ` +
      `has ${has}. Upgrade the plan or delete a service account.`,
  );
}
