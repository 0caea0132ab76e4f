import type { DBInstance } from "@aws-sdk/client-rds";
import { attributes, tagsOf, type ScannedResource } from "../model";
import { collect, type ServiceScanner } from "./service-scanner";
import { securityGroupReferences } from "./vpc";

export type RdsInventory = { instances: DBInstance[] };

const service = "rds";

export const rdsScanner: ServiceScanner<RdsInventory> = {
  service,
  permissions: ["rds:DescribeDBInstances"],

  async read(clients) {
    const { paginateDescribeDBInstances } = await import("@aws-sdk/client-rds");
    const client = await clients.rds();
    const instances = await collect(paginateDescribeDBInstances({ client }, {}), (page) => page.DBInstances);
    // Aurora members belong to their cluster (aws_rds_cluster_instance), which this export does not cover.
    return { instances: instances.filter((instance) => !instance.DBClusterIdentifier) };
  },

  toResources(raw) {
    return raw.instances.flatMap((instance): ScannedResource[] => {
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
            db_subnet_group_name: instance.DBSubnetGroup?.DBSubnetGroupName,
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
  },
};
