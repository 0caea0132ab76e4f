import type { DBInstance, DBSubnetGroup, Tag } from "@aws-sdk/client-rds";
import { attributes, Reference, tagsOf, type ScannedResource } from "../model";
import { collect, mapWithConcurrency, type ServiceScanner } from "./service-scanner";
import { securityGroupReferences, subnetReferences } from "./vpc";

const service = "rds";

/** DB instances, and DB subnet groups with their tags (DescribeDBSubnetGroups answers none). */
export type RdsInventory = {
  instances: DBInstance[];
  subnetGroups?: (DBSubnetGroup & { TagList?: Tag[] })[];
};

function subnetGroupResource(group: DBSubnetGroup & { TagList?: Tag[] }): ScannedResource[] {
  const name = group.DBSubnetGroupName;
  // AWS's own `default` group is not the user's configuration.
  if (!name || name === "default") return [];
  return [
    {
      service,
      type: "aws_db_subnet_group",
      awsId: name,
      importId: name,
      nameHint: name,
      body: attributes({
        name,
        description: group.DBSubnetGroupDescription,
        subnet_ids: subnetReferences(group.Subnets?.map((subnet) => subnet.SubnetIdentifier)),
        tags: tagsOf(group.TagList),
      }),
      tags: tagsOf(group.TagList),
    },
  ];
}

export const rdsScanner: ServiceScanner<RdsInventory> = {
  service,
  permissions: ["rds:DescribeDBInstances", "rds:DescribeDBSubnetGroups", "rds:ListTagsForResource"],

  async read(clients) {
    const { ListTagsForResourceCommand, paginateDescribeDBInstances, paginateDescribeDBSubnetGroups } =
      await import("@aws-sdk/client-rds");
    const client = await clients.rds();
    const instances = await collect(paginateDescribeDBInstances({ client }, {}), (page) => page.DBInstances);
    const groups = await collect(
      paginateDescribeDBSubnetGroups({ client }, {}),
      (page) => page.DBSubnetGroups,
    );
    const subnetGroups = await mapWithConcurrency(groups, 4, async (group) => ({
      ...group,
      TagList: (await client.send(new ListTagsForResourceCommand({ ResourceName: group.DBSubnetGroupArn })))
        .TagList,
    }));
    // Aurora members belong to their cluster (aws_rds_cluster_instance), which this export does not cover.
    return { instances: instances.filter((instance) => !instance.DBClusterIdentifier), subnetGroups };
  },

  toResources(raw) {
    const instances = raw.instances.flatMap((instance): ScannedResource[] => {
      const identifier = instance.DBInstanceIdentifier;
      if (!identifier) return [];
      return [
        {
          service,
          type: "aws_db_instance",
          awsId: identifier,
          importId: identifier,
          nameHint: identifier,
          body: attributes({
            identifier,
            engine: instance.Engine,
            engine_version: instance.EngineVersion,
            instance_class: instance.DBInstanceClass,
            allocated_storage: instance.AllocatedStorage,
            storage_type: instance.StorageType,
            storage_encrypted: instance.StorageEncrypted ? true : undefined,
            username: instance.MasterUsername,
            db_name: instance.DBName,
            db_subnet_group_name: instance.DBSubnetGroup?.DBSubnetGroupName
              ? new Reference("aws_db_subnet_group", instance.DBSubnetGroup.DBSubnetGroupName, "name")
              : undefined,
            vpc_security_group_ids: securityGroupReferences(
              instance.VpcSecurityGroups?.map((group) => group.VpcSecurityGroupId),
            ),
            multi_az: instance.MultiAZ ? true : undefined,
            publicly_accessible: instance.PubliclyAccessible ? true : undefined,
            tags: tagsOf(instance.TagList),
          }),
        },
      ];
    });
    return [...(raw.subnetGroups ?? []).flatMap(subnetGroupResource), ...instances];
  },
};
