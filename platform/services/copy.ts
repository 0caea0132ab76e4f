import { and, asc, eq, inArray, ne } from "drizzle-orm";
import type { ServiceType } from "#contract/service-catalogue";
import type { Database } from "../db/index";
import { environments, resources, serverlessUploads } from "../db/schema";
import { PLATFORM_ACTOR } from "./history";
import { settingsOf } from "./records";
import { createService } from "./services";

/**
 * Copies the services of one environment into another as drafts (a clone's CREATING_DRAFT_RESOURCES and
 * CREATING_DRAFT_APPLICATIONS): the live configuration and settings, not the source's secrets (the copy's first
 * deployment makes its own) nor its unlaunched draft. A function's archive is copied with it. Names the target
 * already has are skipped, so a step that runs again copies nothing twice.
 */
export async function copyServices(
  tx: Database,
  { from, to, applications }: { from: string; to: string; applications: boolean },
  now: Date,
): Promise<number> {
  const [target] = await tx.select().from(environments).where(eq(environments.id, to));
  if (!target) throw new Error(`environment ${to} does not exist`);
  const sources = await tx
    .select()
    .from(resources)
    .where(
      and(
        eq(resources.environmentId, from),
        applications ? eq(resources.serviceType, "application") : ne(resources.serviceType, "application"),
      ),
    )
    .orderBy(asc(resources.createdAt));
  const uploadIds = sources
    .map((source) => source.config.uploadId)
    .filter((id): id is string => typeof id === "string");
  const uploads = uploadIds.length
    ? await tx.select().from(serverlessUploads).where(inArray(serverlessUploads.id, uploadIds))
    : [];

  let copied = 0;
  for (const source of sources) {
    let config = source.config;
    const upload = uploads.find((candidate) => candidate.id === config.uploadId);
    if (upload) {
      const { id: _id, createdAt: _createdAt, ...archive } = upload;
      const [copy] = await tx
        .insert(serverlessUploads)
        .values({ ...archive, environmentId: to, createdAt: now })
        .returning({ id: serverlessUploads.id });
      config = { ...config, uploadId: copy?.id };
    }
    const created = await createService(
      tx,
      {
        environment: target,
        serviceType: source.serviceType as ServiceType,
        name: source.name,
        config,
        settings: settingsOf(source),
        launch: false,
        actor: PLATFORM_ACTOR,
      },
      now,
    );
    if (created) copied += 1;
  }
  return copied;
}
