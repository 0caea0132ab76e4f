import * as z from "zod";
import { environmentPaths } from "./environments";

/**
 * The final snapshots the platform keeps when it deletes a database or cache in AWS (issue 24): when a change
 * replaces it and when its service is deleted. They belong to the environment (a deleted service's snapshots stay
 * listed there); the service details page shows its own.
 */
export const snapshotSchema = z.object({
  /** The snapshot's name in AWS: `<instance or group>-final-<yyyymmddhhmmss>`. */
  name: z.string(),
  arn: z.string(),
  /** The service it was taken of (which may be deleted since). */
  serviceId: z.string(),
  kind: z.enum(["rds", "elasticache"]),
  engine: z.string().nullable(),
  createdAt: z.string().nullable(),
  /** As AWS reports it: the instance's allocated storage ("30 GB"), a cache's data size ("6 MB"); null when unknown. */
  size: z.string().nullable(),
  /** The AWS CLI command that restores it into a new instance or replication group. */
  restoreCommand: z.string(),
});
export type Snapshot = z.infer<typeof snapshotSchema>;

/** GET: the environment's final snapshots, newest first ([] for an environment that runs in no AWS account). */
export const snapshotsResponseSchema = z.object({ snapshots: z.array(snapshotSchema) });

export const snapshotPaths = {
  list: (tenantId: string, environmentId: string) =>
    `${environmentPaths.one(tenantId, environmentId)}/snapshots`,
};
