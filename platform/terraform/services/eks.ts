import type { Cluster } from "@aws-sdk/client-eks";
import { attributes, block, Reference, type ScannedResource } from "../model";
import { collect, mapWithConcurrency, type ServiceScanner } from "./service-scanner";
import { securityGroupReferences, subnetReferences } from "./vpc";

export type EksInventory = { clusters: Cluster[] };

const service = "eks";

export const eksScanner: ServiceScanner<EksInventory> = {
  service,
  permissions: ["eks:ListClusters", "eks:DescribeCluster"],

  async read(clients) {
    const { DescribeClusterCommand, paginateListClusters } = await import("@aws-sdk/client-eks");
    const client = await clients.eks();
    const names = await collect(paginateListClusters({ client }, {}), (page) => page.clusters);
    const clusters = await mapWithConcurrency(names, 4, async (name) => {
      const { cluster } = await client.send(new DescribeClusterCommand({ name }));
      return cluster;
    });
    return { clusters: clusters.filter((cluster): cluster is Cluster => Boolean(cluster?.name)) };
  },

  toResources(raw) {
    return raw.clusters.flatMap((cluster): ScannedResource[] => {
      const name = cluster.name;
      if (!name) return [];
      const vpc = cluster.resourcesVpcConfig;
      const role = cluster.roleArn;
      return [
        {
          service,
          type: "aws_eks_cluster",
          awsId: cluster.arn ?? name,
          importId: name,
          nameHint: name,
          body: [
            ...attributes({
              name,
              role_arn: role ? new Reference("aws_iam_role", role, "arn", role) : undefined,
              version: cluster.version,
            }),
            block(
              "vpc_config",
              attributes({
                subnet_ids: subnetReferences(vpc?.subnetIds),
                security_group_ids: securityGroupReferences(vpc?.securityGroupIds),
                endpoint_private_access: vpc?.endpointPrivateAccess,
                endpoint_public_access: vpc?.endpointPublicAccess,
                public_access_cidrs: vpc?.publicAccessCidrs ?? [],
              }),
            ),
            ...attributes({ tags: cluster.tags ?? {} }),
          ],
        },
      ];
    });
  },
};
