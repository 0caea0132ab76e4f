import { and, eq, isNotNull, isNull, sql } from "drizzle-orm";
import { kindsOfCategory } from "#contract/connections";
import type { Onboarding } from "#contract/onboarding";
import {
  offeredOnboardingSteps,
  type OnboardingEnding,
  type OnboardingStatus,
  type OnboardingStep,
} from "#contract/onboarding-steps";
import type { Database } from "../db/index";
import { flagsOfTenant } from "../feature-flags/flags";
import { isPersonMembership } from "../plans/people";
import {
  connections,
  environments,
  invitations,
  memberships,
  onboardingStates,
  organizations,
  resources,
} from "../db/schema";

/** The organization onboarding is about: its identity-side id and its tenant id. */
export type OnboardingOrganization = { organizationId: string; tenantId: string };

const cloudAccountKinds = kindsOfCategory("cloud-provider").map((definition) => definition.kind);
const notificationKinds = kindsOfCategory("communication-platform").map((definition) => definition.kind);

const kindList = (kinds: readonly string[]) =>
  sql.join(
    kinds.map((kind) => sql`${kind}`),
    sql`, `,
  );

/** Starts onboarding for a new organization; `db` may be the transaction that creates it. */
export async function startOnboarding(db: Database, organizationId: string): Promise<void> {
  await db.insert(onboardingStates).values({ organizationId }).onConflictDoNothing();
}

/**
 * The steps offered to the organization (a step behind a flag that is off is left out, decision 055), each done when
 * the organization's data shows it, read in one query: a verified cloud account (one saved without verifying, or
 * failing its checks, does not work yet), an environment, an
 * application deployed at least once (its first deployment set `deployed_at`), a second member or an invitation
 * that was not cancelled, a Slack or Teams connection.
 */
export async function onboardingChecklist(
  db: Database,
  { organizationId, tenantId }: OnboardingOrganization,
): Promise<Onboarding["checklist"]> {
  const [[row], flags] = await Promise.all([
    db
      .select({
        cloudAccount: sql<boolean>`exists (${db
          .select({ one: sql`1` })
          .from(connections)
          .where(
            and(
              eq(connections.organizationId, organizationId),
              eq(connections.status, "VERIFIED"),
              sql`${connections.kind} in (${kindList(cloudAccountKinds)})`,
            ),
          )})`,
        environment: sql<boolean>`exists (${db
          .select({ one: sql`1` })
          .from(environments)
          .where(eq(environments.tenantId, tenantId))})`,
        application: sql<boolean>`exists (${db
          .select({ one: sql`1` })
          .from(resources)
          .innerJoin(environments, eq(environments.id, resources.environmentId))
          .where(
            and(
              eq(environments.tenantId, tenantId),
              eq(resources.serviceType, "application"),
              isNotNull(resources.deployedAt),
            ),
          )})`,
        members: sql<number>`(${db
          .select({ value: sql`count(*)::int` })
          .from(memberships)
          // A service account is no teammate.
          .where(and(eq(memberships.organizationId, organizationId), isPersonMembership))})`,
        invitation: sql<boolean>`exists (${db
          .select({ one: sql`1` })
          .from(invitations)
          .where(and(eq(invitations.organizationId, organizationId), isNull(invitations.cancelledAt)))})`,
        notifications: sql<boolean>`exists (${db
          .select({ one: sql`1` })
          .from(connections)
          .where(
            and(
              eq(connections.organizationId, organizationId),
              sql`${connections.kind} in (${kindList(notificationKinds)})`,
            ),
          )})`,
      })
      .from(organizations)
      .where(eq(organizations.id, organizationId)),
    flagsOfTenant(db, tenantId),
  ]);
  if (!row) throw new Error(`organization ${organizationId} not found for its onboarding checklist`);
  const done: Record<OnboardingStep, boolean> = {
    "cloud-account": row.cloudAccount,
    environment: row.environment,
    application: row.application,
    team: Number(row.members) > 1 || row.invitation,
    notifications: row.notifications,
  };
  return offeredOnboardingSteps(flags).map((step) => ({ step, done: done[step] }));
}

/** The organization's onboarding: its state and the checklist read from its data. */
export async function readOnboarding(
  db: Database,
  organization: OnboardingOrganization,
): Promise<Onboarding> {
  const [[state], checklist] = await Promise.all([
    db
      .select()
      .from(onboardingStates)
      .where(eq(onboardingStates.organizationId, organization.organizationId)),
    onboardingChecklist(db, organization),
  ]);
  const status: OnboardingStatus = !state
    ? "not-started"
    : state.outcome === "finished" || state.outcome === "dismissed"
      ? state.outcome
      : "in-progress";
  return {
    status,
    startedAt: state?.startedAt.toISOString() ?? null,
    endedAt: state?.endedAt?.toISOString() ?? null,
    checklist,
  };
}

/**
 * Ends onboarding for the whole organization. The first ending wins: a second call (another device, a member who
 * clicked at the same time) changes nothing. An organization that never started one gets an ended one, so it does
 * not start later.
 */
export async function endOnboarding(
  db: Database,
  {
    organizationId,
    userId,
    outcome,
    at,
  }: { organizationId: string; userId: string; outcome: OnboardingEnding; at: Date },
): Promise<void> {
  await db
    .insert(onboardingStates)
    .values({ organizationId, startedAt: at, endedAt: at, outcome, endedBy: userId })
    .onConflictDoUpdate({
      target: onboardingStates.organizationId,
      set: { endedAt: at, outcome, endedBy: userId },
      setWhere: isNull(onboardingStates.outcome),
    });
}
