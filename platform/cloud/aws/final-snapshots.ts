import type { AwsClients } from "./clients";
import { unlessMissing } from "./common";
import { TAG_ENVIRONMENT, TAG_SERVICE } from "./provisioner";

/**
 * A database or cache is never deleted without a final snapshot (issue 24): when its service is deleted, and when
 * a change replaces it. The snapshot carries the service's tags (so it can be found after the service is gone)
 * and a name that says whose it is and when it was taken.
 */

/** `<identifier>-final-<yyyymmddhhmmss>` (UTC): letters, digits and single hyphens, as RDS and ElastiCache take. */
export function finalSnapshotName(identifier: string, now: Date): string {
  const stamp = now
    .toISOString()
    .replace(/\.\d+Z$/, "")
    .replace(/\D/g, "");
  return `${identifier}-final-${stamp}`;
}

/** A final snapshot as the environment lists it (contract/snapshots.ts). */
export type FinalSnapshot = {
  name: string;
  arn: string;
  serviceId: string;
  kind: "rds" | "elasticache";
  engine: string | null;
  createdAt: string | null;
  size: string | null;
  restoreCommand: string;
};

/**
 * The manual RDS and ElastiCache snapshots tagged with the environment's id (the final snapshots the provisioners
 * take, and any the environment's services were given), newest first: found by the Resource Groups Tagging API,
 * then described for their time and size. Automated RDS backups are left out: they go with their instance.
 */
export async function listFinalSnapshots(aws: AwsClients, environmentId: string): Promise<FinalSnapshot[]> {
  const { GetResourcesCommand } = await import("@aws-sdk/client-resource-groups-tagging-api");
  const tagging = await aws.resourceGroupsTagging();
  const mappings = [];
  let token: string | undefined;
  do {
    const page = await tagging.send(
      new GetResourcesCommand({
        TagFilters: [{ Key: TAG_ENVIRONMENT, Values: [environmentId] }],
        ResourceTypeFilters: ["rds", "elasticache"],
        ...(token ? { PaginationToken: token } : {}),
      }),
    );
    mappings.push(...(page.ResourceTagMappingList ?? []));
    token = page.PaginationToken || undefined;
  } while (token);

  const snapshots: FinalSnapshot[] = [];
  for (const mapping of mappings) {
    const arn = mapping.ResourceARN ?? "";
    const match = /^arn:[^:]+:(rds|elasticache):[^:]*:[^:]*:snapshot:(.+)$/.exec(arn);
    if (!match?.[1] || !match[2]) continue;
    const tags = Object.fromEntries((mapping.Tags ?? []).map((tag) => [tag.Key ?? "", tag.Value ?? ""]));
    const serviceId = tags[TAG_SERVICE];
    if (!serviceId) continue;
    const found =
      match[1] === "rds"
        ? await describeRdsSnapshot(aws, match[2])
        : await describeCacheSnapshot(aws, match[2]);
    if (found) snapshots.push({ ...found, arn, serviceId });
  }
  // Names end in their time: they order snapshots taken within one millisecond.
  return snapshots.sort(
    (a, b) => (b.createdAt ?? "").localeCompare(a.createdAt ?? "") || b.name.localeCompare(a.name),
  );
}

type Described = Omit<FinalSnapshot, "arn" | "serviceId">;

async function describeRdsSnapshot(aws: AwsClients, name: string): Promise<Described | null> {
  const sdk = await import("@aws-sdk/client-rds");
  const answer = await unlessMissing(
    async () => (await aws.rds()).send(new sdk.DescribeDBSnapshotsCommand({ DBSnapshotIdentifier: name })),
    "DBSnapshotNotFoundFault",
  );
  const snapshot = answer?.DBSnapshots?.[0];
  if (!snapshot || snapshot.SnapshotType === "automated") return null;
  const restored = `${snapshot.DBInstanceIdentifier ?? name}-restored`.slice(0, 63);
  return {
    name,
    kind: "rds",
    engine: snapshot.Engine ? `${snapshot.Engine} ${snapshot.EngineVersion ?? ""}`.trim() : null,
    createdAt: snapshot.SnapshotCreateTime?.toISOString() ?? null,
    size: snapshot.AllocatedStorage ? `${snapshot.AllocatedStorage} GB` : null,
    restoreCommand: `aws rds restore-db-instance-from-db-snapshot --region ${aws.region} --db-snapshot-identifier ${name} --db-instance-identifier ${restored}`,
  };
}

async function describeCacheSnapshot(aws: AwsClients, name: string): Promise<Described | null> {
  const sdk = await import("@aws-sdk/client-elasticache");
  const answer = await unlessMissing(
    async () => (await aws.elasticache()).send(new sdk.DescribeSnapshotsCommand({ SnapshotName: name })),
    "SnapshotNotFoundFault",
  );
  const snapshot = answer?.Snapshots?.[0];
  if (!snapshot) return null;
  const node = snapshot.NodeSnapshots?.[0];
  const restored = `${snapshot.ReplicationGroupId ?? snapshot.CacheClusterId ?? "cache"}-restored`.slice(
    0,
    40,
  );
  return {
    name,
    kind: "elasticache",
    engine: snapshot.Engine ? `${snapshot.Engine} ${snapshot.EngineVersion ?? ""}`.trim() : null,
    createdAt: node?.SnapshotCreateTime?.toISOString() ?? null,
    size: node?.CacheSize ?? null,
    restoreCommand: `aws elasticache create-replication-group --region ${aws.region} --snapshot-name ${name} --replication-group-id ${restored} --replication-group-description "Restored from ${name}"`,
  };
}
