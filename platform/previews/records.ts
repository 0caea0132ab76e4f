import { and, asc, desc, eq, inArray, isNotNull, ne } from "drizzle-orm";
import type { Preview } from "#contract/previews";
import type { Database } from "../db/index";
import { previews, previewSettings, resources } from "../db/schema";

export type PreviewRow = typeof previews.$inferSelect;

/** A service's endpoint as a browser opens it. */
const urlOfEndpoint = (endpoint: string) => (/^https?:\/\//.test(endpoint) ? endpoint : `http://${endpoint}`);

/**
 * The preview's applications built from the pull request: the preview environment's applications named like the
 * source's chosen ones (a clone keeps its services' names).
 */
export async function chosenApplicationsOf(
  tx: Database,
  preview: Pick<PreviewRow, "sourceEnvironmentId" | "environmentId">,
) {
  // Without its source (deleted), a preview has no setting to choose by: it is being removed.
  if (!preview.environmentId || !preview.sourceEnvironmentId) return [];
  const [setting] = await tx
    .select({ applicationIds: previewSettings.applicationIds })
    .from(previewSettings)
    .where(eq(previewSettings.environmentId, preview.sourceEnvironmentId));
  const sourceEnvironmentId = preview.sourceEnvironmentId;
  const ids = setting?.applicationIds ?? [];
  const names = ids.length
    ? (
        await tx
          .select({ name: resources.name })
          .from(resources)
          .where(and(eq(resources.environmentId, sourceEnvironmentId), inArray(resources.id, ids)))
      ).map((row) => row.name)
    : [];
  if (!names.length) return [];
  return tx
    .select()
    .from(resources)
    .where(
      and(
        eq(resources.environmentId, preview.environmentId),
        eq(resources.serviceType, "application"),
        inArray(resources.name, names),
      ),
    )
    .orderBy(asc(resources.name));
}

/** Where the preview answers: its first chosen application's address, once it has one. */
export async function previewUrlOf(tx: Database, preview: PreviewRow): Promise<string | null> {
  const endpoint = (await chosenApplicationsOf(tx, preview)).find((row) => row.endpoint)?.endpoint;
  return endpoint ? urlOfEndpoint(endpoint) : null;
}

/** The source's previews that deleting it removes: those with an environment, not already being removed. */
export async function livePreviewsOf(tx: Database, sourceEnvironmentId: string): Promise<PreviewRow[]> {
  return tx
    .select()
    .from(previews)
    .where(
      and(
        eq(previews.sourceEnvironmentId, sourceEnvironmentId),
        isNotNull(previews.environmentId),
        ne(previews.state, "REMOVING"),
      ),
    )
    .orderBy(desc(previews.createdAt), desc(previews.number));
}

export async function toPreview(tx: Database, row: PreviewRow): Promise<Preview> {
  return {
    id: row.id,
    environmentId: row.environmentId,
    environmentName: row.environmentName,
    source: { id: row.sourceEnvironmentId, name: row.sourceEnvironmentName },
    pullRequest: { number: row.number, title: row.title, author: row.author, url: row.url },
    headSha: row.headSha,
    state: row.state as Preview["state"],
    message: row.message,
    url: row.state === "READY" ? await previewUrlOf(tx, row) : null,
    lastActivityAt: row.lastActivityAt.toISOString(),
  };
}
