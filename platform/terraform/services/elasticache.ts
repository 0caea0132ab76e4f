import type { CacheCluster } from "@aws-sdk/client-elasticache";
import { attributes, type ScannedResource } from "../model";
import { collect, type ServiceScanner } from "./service-scanner";
import { securityGroupReferences } from "./vpc";

export type ElastiCacheInventory = { clusters: CacheCluster[] };

const service = "elasticache";

export const elastiCacheScanner: ServiceScanner<ElastiCacheInventory> = {
  service,
  permissions: ["elasticache:DescribeCacheClusters"],

  async read(clients) {
    const { paginateDescribeCacheClusters } = await import("@aws-sdk/client-elasticache");
    const client = await clients.elasticache();
    const clusters = await collect(
      paginateDescribeCacheClusters({ client }, {}),
      (page) => page.CacheClusters,
    );
    return { clusters };
  },

  toResources(raw) {
    return raw.clusters.flatMap((cluster): ScannedResource[] => {
      const clusterId = cluster.CacheClusterId;
      if (!clusterId) return [];
      // A member of a replication group takes its settings from the group.
      const body = cluster.ReplicationGroupId
        ? attributes({ cluster_id: clusterId, replication_group_id: cluster.ReplicationGroupId })
        : attributes({
            cluster_id: clusterId,
            engine: cluster.Engine,
            engine_version: cluster.EngineVersion,
            node_type: cluster.CacheNodeType,
            num_cache_nodes: cluster.NumCacheNodes,
            parameter_group_name: cluster.CacheParameterGroup?.CacheParameterGroupName,
            subnet_group_name: cluster.CacheSubnetGroupName,
            security_group_ids: securityGroupReferences(
              cluster.SecurityGroups?.map((group) => group.SecurityGroupId),
            ),
          });
      return [
        {
          service,
          type: "aws_elasticache_cluster",
          awsId: clusterId,
          importId: clusterId,
          nameHint: clusterId,
          body,
        },
      ];
    });
  },
};
