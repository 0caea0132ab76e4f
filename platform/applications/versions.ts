import { and, asc, desc, eq, isNotNull } from "drizzle-orm";
import type { ApplicationVersion } from "#contract/applications";
import type { ConfigDiff } from "#contract/services";
import type { Stage } from "#contract/stages";
import { credentialsOf, findConnection } from "../connections/records";
import type { ProviderContext } from "../connections/providers";
import type { Database } from "../db/index";
import { chartRepositories, organizations, resourceHistory, resources } from "../db/schema";
import type { ApplicationSources } from "../cloud/driver";
import type { EnvironmentRow } from "../environments/records";
import type { SecretCipher } from "../lib/cipher";
import { diffOf } from "../lib/diff";
import { connectionSources } from "./sources";
import { configOf, settingsOf, type HistoryRow, type ResourceRow } from "../services/records";

/**
 * An application's versions (issue 15): each deployment's history entry keeps what it deployed (`release`: the
 * configuration and settings, then the image and digest its source resolved to), so any deployed version can be
 * deployed again exactly, and a rollout that fails its health checks puts back the one that ran before.
 */

/** Keeps the configuration a deployment of `resource` (as now stored) deploys, on its history entry. */
export async function recordRelease(
  tx: Database,
  historyId: string,
  resource: ResourceRow,
  rollbackOf?: string,
) {
  await tx
    .update(resourceHistory)
    .set({
      release: {
        config: configOf(resource),
        settings: settingsOf(resource),
        ...(rollbackOf ? { rollbackOf } : {}),
      },
    })
    .where(eq(resourceHistory.id, historyId));
}

/** Adds the image and digest the deployment ran to its version. */
export async function completeRelease(tx: Database, historyId: string, state: Record<string, string>) {
  const [entry] = await tx.select().from(resourceHistory).where(eq(resourceHistory.id, historyId));
  if (!entry?.release) return;
  await tx
    .update(resourceHistory)
    .set({ release: { ...entry.release, image: state.image, imageDigest: state.imageDigest } })
    .where(eq(resourceHistory.id, historyId));
}

/** The application's deployed versions, oldest first. */
async function releasesOf(tx: Database, resourceId: string): Promise<HistoryRow[]> {
  return tx
    .select()
    .from(resourceHistory)
    .where(and(eq(resourceHistory.resourceId, resourceId), isNotNull(resourceHistory.release)))
    .orderBy(asc(resourceHistory.at));
}

/** The version running now: the newest that completed. */
export async function runningReleaseOf(tx: Database, resourceId: string): Promise<HistoryRow | undefined> {
  const [row] = await tx
    .select()
    .from(resourceHistory)
    .where(
      and(
        eq(resourceHistory.resourceId, resourceId),
        isNotNull(resourceHistory.release),
        eq(resourceHistory.outcome, "STAGE_COMPLETED"),
      ),
    )
    .orderBy(desc(resourceHistory.at))
    .limit(1);
  return row;
}

/**
 * After a rollout whose new pods never became healthy: the service's configuration, settings and image are the
 * running version's again (its pods never stopped). Nothing to put back before a first successful deployment.
 */
export async function restoreRunningVersion(tx: Database, resourceId: string, now: Date) {
  const running = await runningReleaseOf(tx, resourceId);
  const [resource] = await tx.select().from(resources).where(eq(resources.id, resourceId)).for("update");
  if (!running?.release || !resource) return;
  await tx
    .update(resources)
    .set({
      config: running.release.config,
      settings: running.release.settings,
      version: resource.version + 1,
      cloudState: {
        ...resource.cloudState,
        image: running.release.image ?? "",
        imageDigest: running.release.imageDigest ?? "",
      },
      updatedAt: now,
    })
    .where(eq(resources.id, resourceId));
}

/** The versions as the API answers them, newest first. */
export async function versionsOf(tx: Database, resourceId: string): Promise<ApplicationVersion[]> {
  const rows = await releasesOf(tx, resourceId);
  const running = await runningReleaseOf(tx, resourceId);
  const numbers = new Map(rows.map((row, index) => [row.id, index + 1]));
  return rows
    .map((row): ApplicationVersion => {
      const release = row.release ?? { config: {}, settings: {} };
      return {
        id: row.id,
        number: numbers.get(row.id) ?? 1,
        action: row.action,
        actor: row.actor,
        at: row.at.toISOString(),
        outcome: row.outcome as Stage | null,
        image: release.image ?? null,
        imageDigest: release.imageDigest ?? null,
        running: row.id === running?.id,
        rollbackOf: release.rollbackOf ? (numbers.get(release.rollbackOf) ?? null) : null,
        config: release.config,
      };
    })
    .reverse();
}

/** What deploying `target` changes against `running`: its configuration and image, as the history's diffs read. */
export function versionDiff(running: ApplicationVersion | undefined, target: ApplicationVersion): ConfigDiff {
  return [
    ...diffOf(running?.config ?? {}, target.config, "config"),
    ...diffOf(
      { image: running?.image ?? null, imageDigest: running?.imageDigest ?? null },
      { image: target.image, imageDigest: target.imageDigest },
    ),
  ];
}

/** What the application deploy driver reaches: the organization's connections and the environment's charts. */
export async function applicationSourcesOf(
  tx: Database,
  db: Database,
  secrets: SecretCipher,
  environment: EnvironmentRow,
  { awsEndpoint, appUrl = "" }: { awsEndpoint?: string; appUrl?: string },
): Promise<ApplicationSources> {
  const [organization] = await tx
    .select()
    .from(organizations)
    .where(eq(organizations.tenantId, environment.tenantId));
  if (!organization) throw new Error(`the environment ${environment.id} has no organization`);
  const connection = async (id: string) => {
    const row = /^[0-9a-f-]{36}$/i.test(id) ? await findConnection(db, organization.id, id) : undefined;
    return row ? credentialsOf(secrets, row) : undefined;
  };
  const providerContext: ProviderContext = {
    awsEndpoint,
    awsExternalId: organization.awsExternalId,
    organizationName: organization.displayName,
    appUrl,
    connection,
  };
  return {
    ...connectionSources({ connection, providerContext }),
    chartRepositoryUrl: async (id) => {
      if (!/^[0-9a-f-]{36}$/i.test(id)) return undefined;
      const [row] = await db
        .select({ url: chartRepositories.url })
        .from(chartRepositories)
        .where(and(eq(chartRepositories.id, id), eq(chartRepositories.environmentId, environment.id)));
      return row?.url;
    },
  };
}
