import type { Cluster, Nodegroup } from "@aws-sdk/client-eks";
import { attributes, block, Reference, type ScannedResource } from "../model";
import { collect, mapWithConcurrency, type ServiceScanner } from "./service-scanner";
import { securityGroupReferences, subnetReferences } from "./vpc";

export type EksInventory = { clusters: Cluster[]; nodegroups: Nodegroup[] };

const service = "eks";

/** A managed node group; its cluster by reference (by `name`, as Terraform's argument is), its role by ARN. */
function nodegroupResource(group: Nodegroup, clusterIds: Map<string | undefined, string>): ScannedResource[] {
  const { clusterName, nodegroupName } = group;
  if (!clusterName || !nodegroupName) return [];
  const role = group.nodeRole;
  const scaling = group.scalingConfig;
  return [
    {
      service,
      type: "aws_eks_node_group",
      awsId: group.nodegroupArn ?? `${clusterName}:${nodegroupName}`,
      importId: `${clusterName}:${nodegroupName}`,
      nameHint: nodegroupName,
      body: [
        ...attributes({
          cluster_name: new Reference(
            "aws_eks_cluster",
            clusterIds.get(clusterName) ?? clusterName,
            "name",
            clusterName,
          ),
          node_group_name: nodegroupName,
          node_role_arn: role ? new Reference("aws_iam_role", role, "arn", role) : undefined,
          subnet_ids: subnetReferences(group.subnets),
          instance_types: group.instanceTypes ?? [],
          ami_type: group.amiType,
          capacity_type: group.capacityType,
          disk_size: group.diskSize,
          version: group.version,
          labels: group.labels ?? {},
        }),
        block(
          "scaling_config",
          attributes({
            desired_size: scaling?.desiredSize,
            max_size: scaling?.maxSize,
            min_size: scaling?.minSize,
          }),
        ),
        ...attributes({ tags: group.tags ?? {} }),
      ],
      tags: group.tags ?? {},
    },
  ];
}

export const eksScanner: ServiceScanner<EksInventory> = {
  service,
  permissions: ["eks:ListClusters", "eks:DescribeCluster", "eks:ListNodegroups", "eks:DescribeNodegroup"],

  async read(clients) {
    const { DescribeClusterCommand, DescribeNodegroupCommand, paginateListClusters, paginateListNodegroups } =
      await import("@aws-sdk/client-eks");
    const client = await clients.eks();
    const names = await collect(paginateListClusters({ client }, {}), (page) => page.clusters);
    const clusters = await mapWithConcurrency(names, 4, async (name) => {
      const { cluster } = await client.send(new DescribeClusterCommand({ name }));
      return cluster;
    });
    const nodegroupNames = (
      await mapWithConcurrency(names, 4, async (clusterName) =>
        (await collect(paginateListNodegroups({ client }, { clusterName }), (page) => page.nodegroups)).map(
          (nodegroupName) => ({ clusterName, nodegroupName }),
        ),
      )
    ).flat();
    const nodegroups = await mapWithConcurrency(nodegroupNames, 4, async (names) => {
      const { nodegroup } = await client.send(new DescribeNodegroupCommand(names));
      return nodegroup;
    });
    return {
      clusters: clusters.filter((cluster): cluster is Cluster => Boolean(cluster?.name)),
      nodegroups: nodegroups.filter((group): group is Nodegroup => Boolean(group?.nodegroupName)),
    };
  },

  toResources(raw) {
    const clusterIds = new Map(
      raw.clusters.map((cluster) => [cluster.name, cluster.arn ?? cluster.name ?? ""]),
    );
    const clusters = raw.clusters.flatMap((cluster): ScannedResource[] => {
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
          tags: cluster.tags ?? {},
        },
      ];
    });
    return [...clusters, ...raw.nodegroups.flatMap((group) => nodegroupResource(group, clusterIds))];
  },
};
