import type { Instance, Volume } from "@aws-sdk/client-ec2";
import { attributes, nameTagOf, Reference, tagsOf, type ScannedResource } from "../model";
import { collect, type ServiceScanner } from "./service-scanner";
import { securityGroupReferences } from "./vpc";

export type Ec2Inventory = { instances: Instance[]; volumes: Volume[] };

const service = "ec2";
const goneStates = new Set(["shutting-down", "terminated"]);
const volumeTypesWithIops = new Set(["io1", "io2", "gp3"]);

/** Root volumes come and go with their instance (root_block_device), so they are not resources of their own. */
function rootVolumeIds(instances: Instance[]): Set<string> {
  const ids = new Set<string>();
  for (const instance of instances) {
    for (const mapping of instance.BlockDeviceMappings ?? []) {
      if (mapping.DeviceName === instance.RootDeviceName && mapping.Ebs?.VolumeId)
        ids.add(mapping.Ebs.VolumeId);
    }
  }
  return ids;
}

/** The instance profile's name: Terraform takes the name, AWS answers with the ARN. */
function instanceProfileName(arn: string | undefined): string | undefined {
  return arn?.split("/").pop();
}

export const ec2Scanner: ServiceScanner<Ec2Inventory> = {
  service,
  permissions: ["ec2:DescribeInstances", "ec2:DescribeVolumes"],

  async read(clients) {
    const { paginateDescribeInstances, paginateDescribeVolumes } = await import("@aws-sdk/client-ec2");
    const client = await clients.ec2();
    const [reservations, volumes] = await Promise.all([
      collect(paginateDescribeInstances({ client }, {}), (page) => page.Reservations),
      collect(paginateDescribeVolumes({ client }, {}), (page) => page.Volumes),
    ]);
    const instances = reservations.flatMap((reservation) => reservation.Instances ?? []);
    return {
      instances: instances.filter((instance) => !goneStates.has(instance.State?.Name ?? "")),
      volumes,
    };
  },

  toResources(raw) {
    const resources: ScannedResource[] = [];
    for (const instance of raw.instances) {
      if (!instance.InstanceId) continue;
      resources.push({
        service,
        type: "aws_instance",
        awsId: instance.InstanceId,
        importId: instance.InstanceId,
        nameHint: nameTagOf(instance.Tags) ?? instance.InstanceId,
        body: attributes({
          ami: instance.ImageId,
          instance_type: instance.InstanceType,
          subnet_id: instance.SubnetId ? new Reference("aws_subnet", instance.SubnetId) : undefined,
          vpc_security_group_ids: securityGroupReferences(
            instance.SecurityGroups?.map((group) => group.GroupId),
          ),
          key_name: instance.KeyName,
          iam_instance_profile: instanceProfileName(instance.IamInstanceProfile?.Arn),
          tags: tagsOf(instance.Tags),
        }),
      });
    }
    const rootVolumes = rootVolumeIds(raw.instances);
    for (const volume of raw.volumes) {
      if (!volume.VolumeId || rootVolumes.has(volume.VolumeId)) continue;
      resources.push({
        service,
        type: "aws_ebs_volume",
        awsId: volume.VolumeId,
        importId: volume.VolumeId,
        nameHint: nameTagOf(volume.Tags) ?? volume.VolumeId,
        body: attributes({
          availability_zone: volume.AvailabilityZone,
          size: volume.Size,
          type: volume.VolumeType,
          iops: volumeTypesWithIops.has(volume.VolumeType ?? "") ? volume.Iops : undefined,
          throughput: volume.VolumeType === "gp3" ? volume.Throughput : undefined,
          encrypted: volume.Encrypted ? true : undefined,
          kms_key_id: volume.Encrypted ? volume.KmsKeyId : undefined,
          snapshot_id: volume.SnapshotId || undefined,
          tags: tagsOf(volume.Tags),
        }),
      });
    }
    return resources;
  },
};
