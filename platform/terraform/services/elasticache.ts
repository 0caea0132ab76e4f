import type { CacheCluster, CacheSubnetGroup, ReplicationGroup } from "@aws-sdk/client-elasticache";
import { attributes, Reference, type ScannedResource } from "../model";
import { collect, type ServiceScanner } from "./service-scanner";
import { securityGroupReferences, subnetReferences } from "./vpc";

export type ElastiCacheInventory = {
  clusters: CacheCluster[];
  replicationGroups: ReplicationGroup[];
  subnetGroups?: CacheSubnetGroup[];
};

const service = "elasticache";

const subnetGroupReference = (name: string | undefined) =>
  name ? new Reference("aws_elasticache_subnet_group", name, "name") : undefined;

function subnetGroupResource(group: CacheSubnetGroup): ScannedResource[] {
  const name = group.CacheSubnetGroupName;
  // AWS's own `default` group is not the user's configuration.
  if (!name || name === "default") return [];
  return [
    {
      service,
      type: "aws_elasticache_subnet_group",
      awsId: name,
      importId: name,
      nameHint: name,
      body: attributes({
        name,
        description: group.CacheSubnetGroupDescription,
        subnet_ids: subnetReferences(group.Subnets?.map((subnet) => subnet.SubnetIdentifier)),
      }),
    },
  ];
}

function clusterResource(cluster: CacheCluster & { CacheClusterId: string }): ScannedResource {
  return {
    service,
    type: "aws_elasticache_cluster",
    awsId: cluster.CacheClusterId,
    importId: cluster.CacheClusterId,
    nameHint: cluster.CacheClusterId,
    body: attributes({
      cluster_id: cluster.CacheClusterId,
      engine: cluster.Engine,
      engine_version: cluster.EngineVersion,
      node_type: cluster.CacheNodeType,
      num_cache_nodes: cluster.NumCacheNodes,
      parameter_group_name: cluster.CacheParameterGroup?.CacheParameterGroupName,
      subnet_group_name: subnetGroupReference(cluster.CacheSubnetGroupName),
      security_group_ids: securityGroupReferences(
        cluster.SecurityGroups?.map((group) => group.SecurityGroupId),
      ),
    }),
  };
}

/**
 * A replication group with its member clusters folded in: Terraform creates the members from the group's
 * `num_cache_clusters`, so they are not resources of their own, and their shared settings (version, subnet and
 * security groups) are read from the first member. The auth token is a secret and is not written.
 */
function replicationGroupResource(
  group: ReplicationGroup & { ReplicationGroupId: string },
  members: CacheCluster[],
): ScannedResource {
  const first = members[0];
  const port = group.ConfigurationEndpoint?.Port ?? group.NodeGroups?.[0]?.PrimaryEndpoint?.Port;
  return {
    service,
    type: "aws_elasticache_replication_group",
    awsId: group.ReplicationGroupId,
    importId: group.ReplicationGroupId,
    nameHint: group.ReplicationGroupId,
    body: attributes({
      replication_group_id: group.ReplicationGroupId,
      description: group.Description || group.ReplicationGroupId,
      engine: group.Engine ?? first?.Engine,
      engine_version: first?.EngineVersion,
      node_type: group.CacheNodeType ?? first?.CacheNodeType,
      num_cache_clusters: group.MemberClusters?.length || undefined,
      port,
      parameter_group_name: first?.CacheParameterGroup?.CacheParameterGroupName,
      subnet_group_name: subnetGroupReference(first?.CacheSubnetGroupName),
      security_group_ids: securityGroupReferences(
        first?.SecurityGroups?.map((securityGroup) => securityGroup.SecurityGroupId),
      ),
      automatic_failover_enabled: group.AutomaticFailover
        ? group.AutomaticFailover === "enabled" || group.AutomaticFailover === "enabling"
        : undefined,
      multi_az_enabled: group.MultiAZ ? group.MultiAZ === "enabled" : undefined,
      at_rest_encryption_enabled: group.AtRestEncryptionEnabled,
      transit_encryption_enabled: group.TransitEncryptionEnabled,
    }),
  };
}

export const elastiCacheScanner: ServiceScanner<ElastiCacheInventory> = {
  service,
  permissions: [
    "elasticache:DescribeCacheClusters",
    "elasticache:DescribeReplicationGroups",
    "elasticache:DescribeCacheSubnetGroups",
  ],

  async read(clients) {
    const {
      paginateDescribeCacheClusters,
      paginateDescribeCacheSubnetGroups,
      paginateDescribeReplicationGroups,
    } = await import("@aws-sdk/client-elasticache");
    const client = await clients.elasticache();
    const [clusters, replicationGroups, subnetGroups] = await Promise.all([
      collect(paginateDescribeCacheClusters({ client }, {}), (page) => page.CacheClusters),
      collect(paginateDescribeReplicationGroups({ client }, {}), (page) => page.ReplicationGroups),
      collect(paginateDescribeCacheSubnetGroups({ client }, {}), (page) => page.CacheSubnetGroups),
    ]);
    return { clusters, replicationGroups, subnetGroups };
  },

  toResources(raw) {
    const groups = raw.replicationGroups.flatMap((group): ScannedResource[] => {
      const groupId = group.ReplicationGroupId;
      if (!groupId) return [];
      const members = raw.clusters.filter((cluster) => cluster.ReplicationGroupId === groupId);
      return [replicationGroupResource({ ...group, ReplicationGroupId: groupId }, members)];
    });
    // A member of a replication group is written as part of its group.
    const clusters = raw.clusters.flatMap((cluster): ScannedResource[] => {
      const clusterId = cluster.CacheClusterId;
      if (!clusterId || cluster.ReplicationGroupId) return [];
      return [clusterResource({ ...cluster, CacheClusterId: clusterId })];
    });
    return [...(raw.subnetGroups ?? []).flatMap(subnetGroupResource), ...groups, ...clusters];
  },
};
