import type { ResourceAction, ServiceType } from "#contract/service-catalogue";
import type { ServiceSettings } from "#contract/services";
import type { Database } from "../db/index";
import { assertRoomForService } from "../plans/limits";
import { resources } from "../db/schema";
import type { EnvironmentRow } from "../environments/records";
import { serviceDiff } from "../lib/diff";
import { recordAction } from "./history";
import type { HistoryRow, ResourceRow } from "./records";

/**
 * Stores a new service with its first history entry (Create when it deploys at once, Save for a draft), in the
 * caller's transaction. Null when the name is taken in the environment. The caller queues the deployment.
 */
export async function createService(
  tx: Database,
  {
    environment,
    serviceType,
    name,
    config,
    settings,
    launch,
    actor,
  }: {
    environment: EnvironmentRow;
    serviceType: ServiceType;
    name: string;
    config: Record<string, unknown>;
    settings: ServiceSettings;
    launch: boolean;
    actor: string;
  },
  now: Date,
): Promise<{ resource: ResourceRow; history: HistoryRow } | null> {
  await assertRoomForService(tx, environment);
  const [resource] = await tx
    .insert(resources)
    .values({
      environmentId: environment.id,
      name,
      serviceType,
      stage: launch ? "STAGE_QUEUED" : "STAGE_DRAFT",
      config,
      settings,
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoNothing({ target: [resources.environmentId, resources.name] })
    .returning();
  if (!resource) return null;
  const action: ResourceAction = launch ? "Create" : "Save";
  const history = await recordAction(
    tx,
    {
      resourceId: resource.id,
      action,
      actor,
      diff: serviceDiff({ config: {}, settings: {} }, { config, settings }, { serviceType }),
    },
    now,
  );
  return { resource, history };
}
