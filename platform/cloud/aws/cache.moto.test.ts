import {
  DescribeCacheClustersCommand,
  DescribeCacheSubnetGroupsCommand,
  DescribeReplicationGroupsCommand,
  DescribeSnapshotsCommand,
  ListTagsForResourceCommand,
} from "@aws-sdk/client-elasticache";
import { GetSecretValueCommand, ListSecretsCommand } from "@aws-sdk/client-secrets-manager";
import { beforeAll, describe, expect, it } from "vitest";
import { cacheProvisioner } from "./cache";
import { listFinalSnapshots } from "./final-snapshots";
import { TAG_ENVIRONMENT, TAG_SERVICE, type ProvisionContext } from "./provisioner";
import {
  applyUntilDone,
  contextFor,
  createTestNetwork,
  testRegion,
  taggedWithService,
  testResource,
  expectListedSecrets,
} from "../../testing/aws-provisioning";
import { setUpMoto } from "../../testing/aws";

/**
 * moto 5.2 creates replication groups and cache clusters, but does not implement ModifyReplicationGroup, replica
 * changes or DeleteCacheSubnetGroup, and a deleted group stays "deleting" for ever: these tests check the requests
 * the provisioner makes up to there (see docs/decisions/028).
 */

const moto = setUpMoto({ region: testRegion, maxAttempts: 1 });
const { aws } = moto;
let network: Record<string, string>;

beforeAll(async () => {
  network = await createTestNetwork(moto);
}, 120_000);

async function replicationGroup(id: string) {
  const answer = await (
    await aws.elasticache()
  ).send(new DescribeReplicationGroupsCommand({ ReplicationGroupId: id }));
  return answer.ReplicationGroups?.[0];
}

async function secretsOf(serviceId: string) {
  const answer = await (await aws.secretsManager()).send(new ListSecretsCommand({}));
  return (answer.SecretList ?? []).filter((secret) =>
    secret.Tags?.some((tag) => tag.Key === TAG_SERVICE && tag.Value === serviceId),
  );
}

/** Destroys until the deletion `progress` names is under way (moto never finishes deleting a cache). */
async function destroyUntilDeleting(context: ProvisionContext, progress: string): Promise<string[]> {
  const seen: string[] = [];
  let state = { ...context.state };
  for (let step = 0; step < 10 && seen.at(-1) !== progress; step++) {
    const result = await cacheProvisioner.destroy({ ...context, state });
    if (result.done) break;
    seen.push(result.progress);
    state = result.state;
  }
  return seen;
}

describe("the cache provisioner against moto", { timeout: 120_000 }, () => {
  it("creates an encrypted Redis replication group with its auth token in Secrets Manager", async () => {
    const resource = testResource("cache", { name: "sessions" });
    const context = contextFor(aws, resource, network);

    const { result, progress } = await applyUntilDone(cacheProvisioner, context);
    expectListedSecrets(cacheProvisioner, resource, result.secrets);
    expect(progress).toEqual(["Creating the replication group"]);
    const id = result.state.replicationGroupArn?.split(":").at(-1) ?? "";
    expect(id).toMatch(/^sessions-[a-z0-9]{8}$/);
    const group = await replicationGroup(id);
    expect(group).toMatchObject({
      Status: "available",
      Engine: "redis",
      CacheNodeType: "cache.t4g.micro",
      MemberClusters: [`${id}-001`],
      AutomaticFailover: "disabled",
      TransitEncryptionEnabled: true,
      AtRestEncryptionEnabled: true,
      AuthTokenEnabled: true,
    });
    const primary = group?.NodeGroups?.[0]?.PrimaryEndpoint;
    expect(result.endpoint).toBe(`${primary?.Address}:${primary?.Port}`);
    const token = await (
      await aws.secretsManager()
    ).send(new GetSecretValueCommand({ SecretId: result.state.authTokenSecretArn }));
    expect(result.secrets).toEqual({
      authToken: token.SecretString,
      connectionString: `rediss://:${token.SecretString}@${primary?.Address}:6379`,
    });
    const subnetGroup = await (
      await aws.elasticache()
    ).send(new DescribeCacheSubnetGroupsCommand({ CacheSubnetGroupName: result.state.cacheSubnetGroupName }));
    expect(
      subnetGroup.CacheSubnetGroups?.[0]?.Subnets?.map((subnet) => subnet.SubnetIdentifier).sort(),
    ).toEqual(network.privateSubnetIds?.split(",").sort());
    expect(await cacheProvisioner.observe(context)).toEqual({ state: "ok" });

    // From a stale state, nothing is created twice and the same token comes back.
    const again = await applyUntilDone(cacheProvisioner, contextFor(aws, resource, network));
    expect(again.progress).toEqual([]);
    expect(again.result.secrets).toEqual(result.secrets);
    expect(await taggedWithService(aws, resource.id)).toHaveLength(3);
    expect(await secretsOf(resource.id)).toHaveLength(1);

    // A larger node size is a modification in place: ModifyReplicationGroup, which moto answers with a 500.
    const larger = { ...resource, config: { ...resource.config, nodeSize: "cache.m7g.large" } };
    expect(cacheProvisioner.plan(resource, larger)).toEqual({ inPlace: ["config.nodeSize"], replace: [] });
    await expect(
      cacheProvisioner.apply({ ...context, resource: larger, state: result.state }),
    ).rejects.toMatchObject({ $metadata: { httpStatusCode: 500 } });
    expect((await replicationGroup(id))?.Status).toBe("available");

    // Deleting: a final snapshot, then the group, its token with it; the subnet group waits until the group is gone.
    const destroyed = await destroyUntilDeleting(
      { ...context, state: result.state },
      "Deleting the replication group",
    );
    expect(destroyed).toEqual(["Taking the final snapshot", "Deleting the replication group"]);
    expect((await replicationGroup(id))?.Status).toBe("deleting");
    expect(await secretsOf(resource.id)).toEqual([]);
    expect(await cacheProvisioner.observe(context)).toEqual({
      state: "degraded",
      message: `The cache ${id} is deleting`,
    });
  });

  it("keeps a tagged final snapshot of a Redis cache whose service is deleted, and says a Memcached one cannot have one", async () => {
    const resource = testResource("cache", { name: "carts" });
    const environmentId = `env-${resource.id}`;
    const context = contextFor(aws, resource, network, { environmentId });
    const { result } = await applyUntilDone(cacheProvisioner, context);
    const id = result.state.replicationGroupArn?.split(":").at(-1) ?? "";

    const progress = await destroyUntilDeleting(
      { ...context, state: result.state, now: new Date("2026-11-27T07:30:05Z") },
      "Deleting the replication group",
    );
    expect(progress).toEqual(["Taking the final snapshot", "Deleting the replication group"]);
    const name = `${id}-final-20261127073005`;
    const client = await aws.elasticache();
    const { Snapshots = [] } = await client.send(new DescribeSnapshotsCommand({ SnapshotName: name }));
    expect(Snapshots).toMatchObject([{ SnapshotName: name, SnapshotStatus: "available", Engine: "redis" }]);
    const { TagList = [] } = await client.send(
      new ListTagsForResourceCommand({ ResourceName: Snapshots[0]?.ARN }),
    );
    expect(TagList).toEqual(
      expect.arrayContaining([
        { Key: TAG_SERVICE, Value: resource.id },
        { Key: TAG_ENVIRONMENT, Value: environmentId },
      ]),
    );
    expect((await replicationGroup(id))?.Status).toBe("deleting");
    expect(await listFinalSnapshots(aws, environmentId)).toEqual([
      expect.objectContaining({
        name,
        serviceId: resource.id,
        kind: "elasticache",
        engine: expect.stringMatching(/^redis/),
        restoreCommand: `aws elasticache create-replication-group --region ${testRegion} --snapshot-name ${name} --replication-group-id ${id}-restored --replication-group-description "Restored from ${name}"`,
      }),
    ]);
    expect(context.logs).toContainEqual({
      level: "info",
      message: `Deleting replication group ${id}; its data is kept in the final snapshot ${name}`,
    });

    const memcached = testResource("cache", {
      name: "fragments",
      config: { engine: "memcached", version: "1.6", nodes: 1, encryptionInTransit: false },
    });
    const cacheContext = contextFor(aws, memcached, network);
    const created = await cacheProvisioner.apply(cacheContext);
    await destroyUntilDeleting({ ...cacheContext, state: created.state }, "Deleting the cache cluster");
    expect(cacheContext.logs).toContainEqual({
      level: "warn",
      message: expect.stringContaining(
        "Memcached keeps its items in memory only: ElastiCache takes no snapshot",
      ),
    });
  });

  it("snapshots a Redis group before a change replaces it", async () => {
    const resource = testResource("cache", { name: "tokens" });
    const context = contextFor(aws, resource, network);
    const { result } = await applyUntilDone(cacheProvisioner, context);
    const id = result.state.replicationGroupArn?.split(":").at(-1) ?? "";

    const plain = { ...resource, config: { ...resource.config, encryptionInTransit: false } };
    const replacing = { ...context, resource: plain, now: new Date("2026-11-27T07:45:00Z") };
    const first = await cacheProvisioner.apply({ ...replacing, state: result.state });
    expect(first).toMatchObject({ done: false, progress: "Taking the final snapshot" });
    // The group stands until its snapshot does.
    expect((await replicationGroup(id))?.Status).toBe("available");
    const second = await cacheProvisioner.apply({ ...replacing, state: first.state });
    expect(second).toMatchObject({ done: false, progress: "Deleting the replication group to replace it" });
    expect(second.state.finalSnapshot).toBeUndefined();
    expect((await replicationGroup(id))?.Status).toBe("deleting");
    const name = `${id}-final-20261127074500`;
    const { Snapshots = [] } = await (
      await aws.elasticache()
    ).send(new DescribeSnapshotsCommand({ SnapshotName: name }));
    expect(Snapshots).toMatchObject([{ SnapshotName: name, SnapshotStatus: "available" }]);
    expect(context.logs).toContainEqual({
      level: "warn",
      message: `Replacing replication group ${id}: encryption in transit off; its data is kept in the final snapshot ${name}`,
    });
  });

  it("creates a Valkey group of three nodes without encryption in transit: no token, failover across zones", async () => {
    const resource = testResource("cache", {
      name: "queue-cache",
      config: { engine: "valkey", version: "8.0", nodes: 3, encryptionInTransit: false },
    });
    const { result } = await applyUntilDone(cacheProvisioner, contextFor(aws, resource, network));
    expectListedSecrets(cacheProvisioner, resource, result.secrets);
    const id = result.state.replicationGroupArn?.split(":").at(-1) ?? "";
    expect(await replicationGroup(id)).toMatchObject({
      Engine: "valkey",
      MemberClusters: [`${id}-001`, `${id}-002`, `${id}-003`],
      AutomaticFailover: "enabled",
      MultiAZ: "enabled",
      TransitEncryptionEnabled: false,
      AuthTokenEnabled: false,
    });
    expect(result.secrets).toEqual({ connectionString: `redis://${result.endpoint}` });
    expect(result.state.authTokenSecretArn).toBeUndefined();
    expect(await secretsOf(resource.id)).toEqual([]);
  });

  it("creates a Memcached cluster and waits for its configuration endpoint (which moto never reports)", async () => {
    const resource = testResource("cache", {
      name: "pages",
      config: { engine: "memcached", version: "1.6", nodes: 2, encryptionInTransit: false },
    });
    const context = contextFor(aws, resource, network);
    const first = await cacheProvisioner.apply(context);
    expect(first).toMatchObject({ done: false, progress: "Creating the cache cluster" });
    const second = await cacheProvisioner.apply({ ...context, state: first.state });
    expect(second).toMatchObject({ done: false, progress: "Waiting for the configuration endpoint" });
    const clusters = await (await aws.elasticache()).send(new DescribeCacheClustersCommand({}));
    const ours = (clusters.CacheClusters ?? []).filter(
      (cluster) => cluster.ARN === first.state.cacheClusterArn,
    );
    expect(ours).toMatchObject([{ Engine: "memcached", NumCacheNodes: 2, CacheNodeType: "cache.t4g.micro" }]);

    const destroyed = await cacheProvisioner.destroy({ ...context, state: second.state });
    expect(destroyed).toMatchObject({ done: false, progress: "Deleting the cache cluster" });
  });

  it("plans which changes ElastiCache makes in place and which replace the cache", () => {
    const redis = testResource("cache");
    const change = (config: Record<string, unknown>) =>
      cacheProvisioner.plan(redis, { ...redis, config: { ...redis.config, ...config } });
    expect(change({ nodes: 3, version: "7.1" })).toEqual({ inPlace: ["config.nodes"], replace: [] });
    expect(change({ engine: "valkey", version: "8.0" })).toEqual({
      inPlace: ["config.engine", "config.version"],
      replace: [],
    });
    expect(change({ version: "6.2" })).toEqual({ inPlace: [], replace: ["config.version"] });
    expect(change({ encryptionInTransit: false })).toEqual({
      inPlace: [],
      replace: ["config.encryptionInTransit"],
    });
    expect(change({ engine: "memcached", version: "1.6" })).toEqual({
      inPlace: [],
      replace: ["config.engine", "config.version"],
    });
  });
});
