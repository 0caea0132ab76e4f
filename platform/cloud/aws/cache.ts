import type { CacheCluster, ReplicationGroup } from "@aws-sdk/client-elasticache";
import type { ServiceConfig } from "#contract/service-configs";
import { isAwsError } from "./aws-errors";
import type { DriverResource } from "../driver";
import { configOf } from "../configs";
import type { ApplyResult, ProvisionContext, Provisioner } from "./provisioner";
import { deleteSecret, ensureSecret, generatedPassword } from "./secrets";
import { finalSnapshotName } from "./final-snapshots";
import {
  ProvisionError,
  compareVersions,
  networkOf,
  pending,
  physicalName,
  planChanges,
  tagList,
  unlessMissing,
} from "./common";

/**
 * A cache is ElastiCache in the environment's private subnets (its own cache subnet group, the network's security
 * group). Redis and Valkey are a replication group of `nodes` nodes (a primary and its replicas, with automatic
 * failover across zones from two nodes on), encrypted at rest, and in transit when configured, with an auth token
 * kept in Secrets Manager. Memcached is a cache cluster of `nodes` nodes. Node size, replicas, version upgrades and
 * Redis → Valkey change in place; encryption in transit, downgrades and changes to or from Memcached replace it
 * (a Memcached cluster keeps nothing a replacement would lose but its cached items). A Redis or Valkey group is
 * never deleted (replaced or torn down) before its final snapshot `<id>-final-<time>` is taken; Memcached has none.
 */

type CacheConfig = ServiceConfig<"cache">;

const CREATE_WAIT_MS = 30_000;
const MODIFY_WAIT_MS = 20_000;
const DEGRADED_STATUSES = new Set(["create-failed", "incompatible-network", "restore-failed"]);

function namesOf(resource: DriverResource) {
  // Replication group and cache cluster ids: at most 40 characters, from a letter, no double hyphen.
  const id = physicalName(resource, 40);
  return { id, subnetGroup: id, secret: `cloud-console/${id}/auth-token` };
}

async function elastiCacheOf(context: ProvisionContext) {
  return { client: await context.aws.elasticache(), sdk: await import("@aws-sdk/client-elasticache") };
}

async function describeReplicationGroup(context: ProvisionContext, id: string) {
  const { client, sdk } = await elastiCacheOf(context);
  const answer = await unlessMissing(
    () => client.send(new sdk.DescribeReplicationGroupsCommand({ ReplicationGroupId: id })),
    "ReplicationGroupNotFoundFault",
  );
  return answer?.ReplicationGroups?.[0];
}

async function describeCacheCluster(context: ProvisionContext, id: string) {
  const { client, sdk } = await elastiCacheOf(context);
  const answer = await unlessMissing(
    () => client.send(new sdk.DescribeCacheClustersCommand({ CacheClusterId: id, ShowCacheNodeInfo: true })),
    "CacheClusterNotFoundFault",
  );
  return answer?.CacheClusters?.[0];
}

/** The engine version a replication group runs: ElastiCache reports it on its member clusters. */
async function versionOf(context: ProvisionContext, group: ReplicationGroup): Promise<string | undefined> {
  const member = group.MemberClusters?.[0];
  return member ? (await describeCacheCluster(context, member))?.EngineVersion : undefined;
}

/** Why `group` cannot become `config` in place (empty when it can). */
function replicationGroupReplacements(config: CacheConfig, group: ReplicationGroup, version?: string) {
  const reasons: string[] = [];
  // Redis OSS upgrades to Valkey in place; nothing goes back.
  if (group.Engine === "valkey" && config.engine !== "valkey")
    reasons.push(`engine valkey → ${config.engine}`);
  if (Boolean(group.TransitEncryptionEnabled) !== config.encryptionInTransit)
    reasons.push(`encryption in transit ${config.encryptionInTransit ? "on" : "off"}`);
  if (version && group.Engine === config.engine && compareVersions(config.version, version) < 0)
    reasons.push(`version ${version} → ${config.version} (ElastiCache does not downgrade)`);
  return reasons;
}

/**
 * One step towards deleting a Redis or Valkey replication group without losing its data: a snapshot of it first
 * (CreateSnapshot, from a replica when there is one, with the service's tags), then, once ElastiCache has it, the
 * deletion. CreateSnapshot rather than DeleteReplicationGroup's FinalSnapshotIdentifier: the snapshot carries the
 * tags the platform finds it by, and the group is only deleted once its snapshot exists (decision 047). The
 * snapshot's name waits in `state.finalSnapshot` between the calls.
 */
async function snapshotThenDeleteGroup(
  context: ProvisionContext,
  state: Record<string, string>,
  group: ReplicationGroup,
  purpose: string,
): Promise<{ deleted: boolean; progress: string; waitMs: number }> {
  const { client, sdk } = await elastiCacheOf(context);
  const id = group.ReplicationGroupId ?? namesOf(context.resource).id;
  // A group ElastiCache could not create holds no data.
  if (group.Status !== "create-failed") {
    const name = state.finalSnapshot;
    if (!name) {
      if (group.Status !== "available") {
        return {
          deleted: false,
          progress: `Waiting to snapshot the replication group (${group.Status})`,
          waitMs: MODIFY_WAIT_MS,
        };
      }
      // A group of one shard is snapshotted from one of its nodes (a replica spares the primary); a node the
      // endpoint does not list as a cache cluster leaves it to ElastiCache to choose, from the group.
      const replica = group.NodeGroups?.[0]?.NodeGroupMembers?.find(
        (member) => member.CurrentRole === "replica",
      );
      const member = replica?.CacheClusterId ?? group.MemberClusters?.[0];
      const source = member ? (await describeCacheCluster(context, member))?.CacheClusterId : undefined;
      const snapshot = finalSnapshotName(id, context.now);
      await client.send(
        new sdk.CreateSnapshotCommand({
          SnapshotName: snapshot,
          ...(source ? { CacheClusterId: source } : { ReplicationGroupId: id }),
          Tags: tagList(context.tags),
        }),
      );
      state.finalSnapshot = snapshot;
      context.log("info", `Taking the final snapshot ${snapshot} of replication group ${id}`);
      return { deleted: false, progress: "Taking the final snapshot", waitMs: MODIFY_WAIT_MS };
    }
    const answer = await unlessMissing(
      () => client.send(new sdk.DescribeSnapshotsCommand({ SnapshotName: name })),
      "SnapshotNotFoundFault",
    );
    const status = answer?.Snapshots?.[0]?.SnapshotStatus;
    if (status === "creating") {
      return { deleted: false, progress: "Taking the final snapshot", waitMs: MODIFY_WAIT_MS };
    }
    if (status !== "available") {
      throw new ProvisionError(
        `the final snapshot ${name} of replication group ${id} is ${status ?? "missing"}, so the group is kept; try again to take another`,
        "SnapshotFailed",
      );
    }
  }
  const deleted = await unlessMissing(
    () => client.send(new sdk.DeleteReplicationGroupCommand({ ReplicationGroupId: id })),
    "InvalidReplicationGroupStateFault",
  );
  if (!deleted) {
    return {
      deleted: false,
      progress: `Waiting to delete the replication group (${group.Status})`,
      waitMs: MODIFY_WAIT_MS,
    };
  }
  const kept = state.finalSnapshot;
  delete state.finalSnapshot;
  context.log(
    purpose === "" ? "info" : "warn",
    `${purpose === "" ? "Deleting" : `Replacing`} replication group ${id}${purpose}; ${
      kept
        ? `its data is kept in the final snapshot ${kept}`
        : "ElastiCache never created it, so it held no data"
    }`,
  );
  return { deleted: true, progress: "", waitMs: CREATE_WAIT_MS };
}

/** Memcached has nothing ElastiCache can snapshot: its deletion says so in the log. */
function logNoSnapshot(context: ProvisionContext, id: string) {
  context.log(
    "warn",
    `Memcached keeps its items in memory only: ElastiCache takes no snapshot of cache cluster ${id}, whose cached items are gone`,
  );
}

async function applyReplicationGroup(
  context: ProvisionContext,
  config: CacheConfig,
  state: Record<string, string>,
): Promise<ApplyResult> {
  const { client, sdk } = await elastiCacheOf(context);
  const network = networkOf(context);
  const names = namesOf(context.resource);
  const token = config.encryptionInTransit
    ? await ensureSecret(context, {
        name: names.secret,
        description: `Auth token of the ${config.engine} cache ${names.id}`,
        generate: () => generatedPassword(32),
      })
    : undefined;
  if (token) state.authTokenSecretArn = token.arn;
  else delete state.authTokenSecretArn;

  const group = await describeReplicationGroup(context, names.id);
  if (!group) {
    const created = await client.send(
      new sdk.CreateReplicationGroupCommand({
        ReplicationGroupId: names.id,
        ReplicationGroupDescription: `Cache ${context.resource.name}`,
        Engine: config.engine,
        EngineVersion: config.version,
        CacheNodeType: config.nodeSize,
        NumNodeGroups: 1,
        ReplicasPerNodeGroup: config.nodes - 1,
        AutomaticFailoverEnabled: config.nodes > 1,
        MultiAZEnabled: config.nodes > 1,
        CacheSubnetGroupName: names.subnetGroup,
        SecurityGroupIds: [network.securityGroupId],
        AtRestEncryptionEnabled: true,
        TransitEncryptionEnabled: config.encryptionInTransit,
        ...(token ? { AuthToken: token.value } : {}),
        Port: 6379,
        Tags: tagList(context.tags),
      }),
    );
    if (created.ReplicationGroup?.ARN) state.replicationGroupArn = created.ReplicationGroup.ARN;
    context.log(
      "info",
      `Creating ${config.engine} ${config.version} replication group ${names.id} (${config.nodes} × ${config.nodeSize})`,
    );
    return pending(state, "Creating the replication group", CREATE_WAIT_MS);
  }
  if (group.ARN) state.replicationGroupArn = group.ARN;
  const status = group.Status ?? "unknown";
  if (status === "create-failed") {
    throw new Error(`ElastiCache could not create the replication group ${names.id} (status create-failed)`);
  }
  if (status !== "available") return pending(state, `Replication group ${status}`, CREATE_WAIT_MS);

  const version = await versionOf(context, group);
  const reasons = replicationGroupReplacements(config, group, version);
  if (reasons.length > 0) {
    const step = await snapshotThenDeleteGroup(context, state, group, `: ${reasons.join(", ")}`);
    return step.deleted
      ? pending(state, "Deleting the replication group to replace it", step.waitMs)
      : pending(state, step.progress, step.waitMs);
  }

  // One modification at a time: ElastiCache refuses a second while the group is modifying.
  const modify = async (change: string, input: Record<string, unknown>) => {
    await client.send(
      new sdk.ModifyReplicationGroupCommand({
        ReplicationGroupId: names.id,
        ApplyImmediately: true,
        ...input,
      }),
    );
    context.log("info", `Modifying replication group ${names.id} in place: ${change}`);
    return pending(state, "Modifying the replication group", MODIFY_WAIT_MS);
  };
  if (group.CacheNodeType !== config.nodeSize) {
    return modify(`node size ${group.CacheNodeType} → ${config.nodeSize}`, {
      CacheNodeType: config.nodeSize,
    });
  }
  if (group.Engine !== config.engine) {
    return modify(`engine ${group.Engine} → ${config.engine}`, {
      Engine: config.engine,
      EngineVersion: config.version,
    });
  }
  if (version && compareVersions(config.version, version) > 0) {
    return modify(`version ${version} → ${config.version}`, { EngineVersion: config.version });
  }
  const nodes = group.MemberClusters?.length ?? 0;
  const failover = group.AutomaticFailover === "enabled" || group.AutomaticFailover === "enabling";
  if (nodes < config.nodes) {
    await client.send(
      new sdk.IncreaseReplicaCountCommand({
        ReplicationGroupId: names.id,
        NewReplicaCount: config.nodes - 1,
        ApplyImmediately: true,
      }),
    );
    context.log("info", `Adding replicas to ${names.id}: ${nodes} → ${config.nodes} nodes`);
    return pending(state, "Adding replicas", MODIFY_WAIT_MS);
  }
  // A single node cannot fail over: failover goes before the last replica does.
  if (config.nodes === 1 && failover) {
    return modify("automatic failover off", { AutomaticFailoverEnabled: false, MultiAZEnabled: false });
  }
  if (nodes > config.nodes) {
    await client.send(
      new sdk.DecreaseReplicaCountCommand({
        ReplicationGroupId: names.id,
        NewReplicaCount: config.nodes - 1,
        ApplyImmediately: true,
      }),
    );
    context.log("info", `Removing replicas from ${names.id}: ${nodes} → ${config.nodes} nodes`);
    return pending(state, "Removing replicas", MODIFY_WAIT_MS);
  }
  if (config.nodes > 1 && !failover) {
    return modify("automatic failover on", { AutomaticFailoverEnabled: true, MultiAZEnabled: true });
  }

  const primary = group.NodeGroups?.[0]?.PrimaryEndpoint;
  if (!primary?.Address || !primary.Port) {
    return pending(state, "Waiting for the primary endpoint", MODIFY_WAIT_MS);
  }
  const host = primary.Address;
  const connectionString = token
    ? `rediss://:${token.value}@${host}:${primary.Port}`
    : `redis://${host}:${primary.Port}`;
  return {
    done: true,
    state,
    endpoint: `${host}:${primary.Port}`,
    secrets: token ? { authToken: token.value, connectionString } : { connectionString },
    outputs: { host, port: String(primary.Port), replicationGroupArn: state.replicationGroupArn ?? "" },
  };
}

/** Why `cluster` cannot become `config` in place: everything but the node count. */
function cacheClusterReplacements(config: CacheConfig, cluster: CacheCluster) {
  const reasons: string[] = [];
  if (cluster.CacheNodeType !== config.nodeSize)
    reasons.push(`node size ${cluster.CacheNodeType} → ${config.nodeSize}`);
  if (!(cluster.EngineVersion ?? config.version).startsWith(config.version))
    reasons.push(`version ${cluster.EngineVersion} → ${config.version}`);
  if (Boolean(cluster.TransitEncryptionEnabled) !== config.encryptionInTransit)
    reasons.push(`encryption in transit ${config.encryptionInTransit ? "on" : "off"}`);
  return reasons;
}

async function applyCacheCluster(
  context: ProvisionContext,
  config: CacheConfig,
  state: Record<string, string>,
): Promise<ApplyResult> {
  const { client, sdk } = await elastiCacheOf(context);
  const network = networkOf(context);
  const names = namesOf(context.resource);
  const cluster = await describeCacheCluster(context, names.id);
  if (!cluster) {
    const created = await client.send(
      new sdk.CreateCacheClusterCommand({
        CacheClusterId: names.id,
        Engine: "memcached",
        EngineVersion: config.version,
        CacheNodeType: config.nodeSize,
        NumCacheNodes: config.nodes,
        AZMode: config.nodes > 1 ? "cross-az" : "single-az",
        CacheSubnetGroupName: names.subnetGroup,
        SecurityGroupIds: [network.securityGroupId],
        TransitEncryptionEnabled: config.encryptionInTransit,
        Port: 11211,
        Tags: tagList(context.tags),
      }),
    );
    if (created.CacheCluster?.ARN) state.cacheClusterArn = created.CacheCluster.ARN;
    context.log("info", `Creating memcached cluster ${names.id} (${config.nodes} × ${config.nodeSize})`);
    return pending(state, "Creating the cache cluster", CREATE_WAIT_MS);
  }
  if (cluster.ARN) state.cacheClusterArn = cluster.ARN;
  const status = cluster.CacheClusterStatus ?? "unknown";
  if (status !== "available") return pending(state, `Cache cluster ${status}`, CREATE_WAIT_MS);

  const reasons = cacheClusterReplacements(config, cluster);
  if (reasons.length > 0) {
    await client.send(new sdk.DeleteCacheClusterCommand({ CacheClusterId: names.id }));
    context.log("warn", `Replacing cache cluster ${names.id}: ${reasons.join(", ")}`);
    logNoSnapshot(context, names.id);
    return pending(state, "Deleting the cache cluster to replace it", CREATE_WAIT_MS);
  }
  const nodes = cluster.NumCacheNodes ?? 0;
  if (nodes !== config.nodes) {
    const nodeIds = (cluster.CacheNodes ?? []).map((node) => node.CacheNodeId ?? "").sort();
    await client.send(
      new sdk.ModifyCacheClusterCommand({
        CacheClusterId: names.id,
        NumCacheNodes: config.nodes,
        ...(config.nodes < nodes ? { CacheNodeIdsToRemove: nodeIds.slice(config.nodes) } : {}),
        ...(config.nodes > 1 ? { AZMode: "cross-az" as const } : {}),
        ApplyImmediately: true,
      }),
    );
    context.log("info", `Resizing cache cluster ${names.id}: ${nodes} → ${config.nodes} nodes`);
    return pending(state, "Resizing the cache cluster", MODIFY_WAIT_MS);
  }

  const endpoint = cluster.ConfigurationEndpoint;
  if (!endpoint?.Address || !endpoint.Port) {
    return pending(state, "Waiting for the configuration endpoint", MODIFY_WAIT_MS);
  }
  return {
    done: true,
    state,
    endpoint: `${endpoint.Address}:${endpoint.Port}`,
    secrets: { connectionString: `memcached://${endpoint.Address}:${endpoint.Port}` },
    outputs: {
      host: endpoint.Address,
      port: String(endpoint.Port),
      cacheClusterArn: state.cacheClusterArn ?? "",
    },
  };
}

/**
 * What a cache answers: its connection string, and a Redis or Valkey cache with encryption in transit its auth
 * token too (memcached has none).
 */
function secretAttributeNamesOf(config: CacheConfig): readonly string[] {
  return config.engine !== "memcached" && config.encryptionInTransit
    ? ["authToken", "connectionString"]
    : ["connectionString"];
}

export const cacheProvisioner: Provisioner = {
  secretAttributeNames: (resource) => secretAttributeNamesOf(configOf(resource, "cache")),
  async apply(context) {
    const config = configOf(context.resource, "cache");
    const network = networkOf(context);
    const names = namesOf(context.resource);
    const { client, sdk } = await elastiCacheOf(context);
    const state: Record<string, string> = { ...context.state };

    const subnetGroup = await unlessMissing(
      () =>
        client.send(new sdk.DescribeCacheSubnetGroupsCommand({ CacheSubnetGroupName: names.subnetGroup })),
      "CacheSubnetGroupNotFoundFault",
    );
    if (!subnetGroup?.CacheSubnetGroups?.length) {
      await client.send(
        new sdk.CreateCacheSubnetGroupCommand({
          CacheSubnetGroupName: names.subnetGroup,
          CacheSubnetGroupDescription: `Private subnets of the cache ${context.resource.name}`,
          SubnetIds: network.privateSubnetIds,
          Tags: tagList(context.tags),
        }),
      );
      context.log("info", `Created cache subnet group ${names.subnetGroup}`);
    }
    state.cacheSubnetGroupName = names.subnetGroup;

    // Switching to or from Memcached: the other kind goes first (a replacement).
    if (config.engine === "memcached") {
      const group = await describeReplicationGroup(context, names.id);
      if (group) {
        if (group.Status !== "deleting") {
          const step = await snapshotThenDeleteGroup(context, state, group, " with a memcached cluster");
          if (!step.deleted) return pending(state, step.progress, step.waitMs);
        }
        return pending(state, "Deleting the replication group to replace it", CREATE_WAIT_MS);
      }
      delete state.replicationGroupArn;
      return applyCacheCluster(context, config, state);
    }
    const cluster = await describeCacheCluster(context, names.id);
    if (cluster) {
      if (cluster.CacheClusterStatus !== "deleting") {
        await client.send(new sdk.DeleteCacheClusterCommand({ CacheClusterId: names.id }));
        context.log("warn", `Replacing cache cluster ${names.id} with a ${config.engine} replication group`);
        logNoSnapshot(context, names.id);
      }
      return pending(state, "Deleting the cache cluster to replace it", CREATE_WAIT_MS);
    }
    delete state.cacheClusterArn;
    return applyReplicationGroup(context, config, state);
  },

  async destroy(context) {
    const names = namesOf(context.resource);
    const { client, sdk } = await elastiCacheOf(context);
    const state = { ...context.state };

    const group = await describeReplicationGroup(context, names.id);
    if (group && group.Status !== "deleting") {
      const step = await snapshotThenDeleteGroup(context, state, group, "");
      if (!step.deleted) return pending(state, step.progress, step.waitMs);
    }
    const cluster = group ? undefined : await describeCacheCluster(context, names.id);
    if (cluster && cluster.CacheClusterStatus !== "deleting") {
      const deleted = await unlessMissing(
        () => client.send(new sdk.DeleteCacheClusterCommand({ CacheClusterId: names.id })),
        "InvalidCacheClusterStateFault",
      );
      if (!deleted) {
        return pending(
          state,
          `Waiting to delete the cache cluster (${cluster.CacheClusterStatus})`,
          MODIFY_WAIT_MS,
        );
      }
      context.log("info", `Deleting cache cluster ${names.id}`);
      logNoSnapshot(context, names.id);
    }
    // Nothing needs the token once the deletion is under way.
    await deleteSecret(context, names.secret);
    if (group) return pending(state, "Deleting the replication group", CREATE_WAIT_MS);
    if (cluster) return pending(state, "Deleting the cache cluster", CREATE_WAIT_MS);

    try {
      const deleted = await unlessMissing(
        () => client.send(new sdk.DeleteCacheSubnetGroupCommand({ CacheSubnetGroupName: names.subnetGroup })),
        "CacheSubnetGroupNotFoundFault",
      );
      if (deleted) context.log("info", `Deleted cache subnet group ${names.subnetGroup}`);
    } catch (error) {
      // Still held by nodes that are going away.
      if (isAwsError(error, "CacheSubnetGroupInUse")) {
        return pending(state, "Waiting to delete the cache subnet group", MODIFY_WAIT_MS);
      }
      throw error;
    }
    return { done: true };
  },

  plan(before, after) {
    const from = configOf(before, "cache");
    const to = configOf(after, "cache");
    const memcached = from.engine === "memcached" || to.engine === "memcached";
    const engineReplaced = from.engine !== to.engine && (memcached || from.engine === "valkey");
    return planChanges(before, after, ({ path }) => {
      switch (path) {
        case "config.engine":
          return engineReplaced ? "replace" : "inPlace";
        case "config.version":
          return engineReplaced ||
            (memcached && from.engine === to.engine) ||
            compareVersions(to.version, from.version) < 0
            ? "replace"
            : "inPlace";
        case "config.nodeSize":
          return memcached ? "replace" : "inPlace";
        case "config.nodes":
          return "inPlace";
        case "config.encryptionInTransit":
          return "replace";
        default:
          return null;
      }
    });
  },

  async units(context) {
    const config = configOf(context.resource, "cache");
    const { id } = namesOf(context.resource);
    if (config.engine === "memcached") {
      const cluster = await describeCacheCluster(context, id);
      return (cluster?.CacheNodes ?? []).map((node) => ({
        name: `${id}-${node.CacheNodeId ?? ""}`,
        status: node.CacheNodeStatus ?? cluster?.CacheClusterStatus ?? "unknown",
      }));
    }
    // Redis and Valkey: a node per member cluster (`<id>-001`, ...), as the replication group lists them.
    const group = await describeReplicationGroup(context, id);
    return (group?.NodeGroups ?? []).flatMap((nodeGroup) =>
      (nodeGroup.NodeGroupMembers ?? []).map((member) => ({
        name: member.CacheClusterId ?? "",
        status: nodeGroup.Status ?? group?.Status ?? "unknown",
      })),
    );
  },

  async observe(context) {
    const config = configOf(context.resource, "cache");
    const names = namesOf(context.resource);
    const status =
      config.engine === "memcached"
        ? (await describeCacheCluster(context, names.id))?.CacheClusterStatus
        : (await describeReplicationGroup(context, names.id))?.Status;
    if (!status) return { state: "missing", message: `The cache ${names.id} no longer exists in AWS` };
    if (DEGRADED_STATUSES.has(status) || status === "deleting") {
      return { state: "degraded", message: `The cache ${names.id} is ${status}` };
    }
    return { state: "ok" };
  },
};
