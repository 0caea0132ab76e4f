import { randomUUID } from "node:crypto";
import {
  CreateSecurityGroupCommand,
  CreateSubnetCommand,
  CreateVpcCommand,
  EC2Client,
} from "@aws-sdk/client-ec2";
import { GetResourcesCommand } from "@aws-sdk/client-resource-groups-tagging-api";
import { expect } from "vitest";
import { type ServiceType } from "#contract/service-catalogue";
import { defaultServiceSettings } from "#contract/services";
import { defaultServiceConfigs } from "#contract/service-configs";
import { motoCredentials, type MotoServer } from "../../tests/setup/moto-server";
import type { AwsClients } from "../cloud/aws/clients";
import type { DriverResource, NewLogLine } from "../cloud/driver";
import {
  TAG_ENVIRONMENT,
  TAG_ORGANIZATION,
  TAG_SERVICE,
  type ApplyResult,
  type ProvisionContext,
  type Provisioner,
} from "../cloud/aws/provisioner";

/** Test support for provisioners: a network in moto, contexts, and the engine's loop (waits skipped). */

export const testRegion = "us-east-1";

/**
 * What the network provisioner hands the types inside it: a VPC with a public and a private subnet in each of two
 * availability zones, and a security group.
 */
export async function createTestNetwork(moto: Pick<MotoServer, "endpoint">): Promise<Record<string, string>> {
  const ec2 = new EC2Client({ region: testRegion, credentials: motoCredentials, endpoint: moto.endpoint });
  const vpc = await ec2.send(new CreateVpcCommand({ CidrBlock: "10.0.0.0/16" }));
  const vpcId = vpc.Vpc?.VpcId ?? "";
  const subnet = async (cidr: string, zone: string) =>
    (
      await ec2.send(
        new CreateSubnetCommand({ VpcId: vpcId, CidrBlock: cidr, AvailabilityZone: `${testRegion}${zone}` }),
      )
    ).Subnet?.SubnetId ?? "";
  const publicSubnetIds = [await subnet("10.0.0.0/24", "a"), await subnet("10.0.1.0/24", "b")];
  const privateSubnetIds = [await subnet("10.0.10.0/24", "a"), await subnet("10.0.11.0/24", "b")];
  const group = await ec2.send(
    new CreateSecurityGroupCommand({
      GroupName: `services-${randomUUID().slice(0, 8)}`,
      Description: "The environment's services",
      VpcId: vpcId,
    }),
  );
  ec2.destroy();
  return {
    vpcId,
    publicSubnetIds: publicSubnetIds.join(","),
    privateSubnetIds: privateSubnetIds.join(","),
    securityGroupId: group.GroupId ?? "",
  };
}

export function testResource<T extends ServiceType>(
  serviceType: T,
  overrides: {
    name?: string;
    config?: Record<string, unknown>;
    settings?: Partial<DriverResource["settings"]>;
  } = {},
): DriverResource {
  return {
    id: randomUUID(),
    name: overrides.name ?? `${serviceType}-one`,
    serviceType,
    config: { ...defaultServiceConfigs[serviceType], ...overrides.config },
    settings: { ...defaultServiceSettings, ...overrides.settings },
    environmentName: "production",
    cloudProvider: "AWS",
    region: testRegion,
  };
}

export type TestContext = ProvisionContext & { logs: { level: NewLogLine["level"]; message: string }[] };

export function contextFor(
  aws: AwsClients,
  resource: DriverResource,
  network: Record<string, string> | null,
  { environmentId = "env-1", state = {} }: { environmentId?: string; state?: Record<string, string> } = {},
): TestContext {
  const logs: TestContext["logs"] = [];
  return {
    resource,
    tags: {
      [TAG_ORGANIZATION]: "org-1",
      [TAG_ENVIRONMENT]: environmentId,
      [TAG_SERVICE]: resource.id,
      Name: resource.name,
    },
    state,
    network,
    aws,
    log: (level, message) => logs.push({ level, message }),
    now: new Date(),
    logs,
  };
}

/** The engine's loop with the waits left out: apply until done, carrying the state. */
export async function applyUntilDone(
  provisioner: Provisioner,
  context: ProvisionContext,
  maxSteps = 40,
): Promise<{ result: Extract<ApplyResult, { done: true }>; progress: string[] }> {
  const progress: string[] = [];
  let state = { ...context.state };
  for (let step = 0; step < maxSteps; step++) {
    const result = await provisioner.apply({ ...context, state });
    if (result.done) return { result, progress };
    progress.push(result.progress);
    state = result.state;
  }
  throw new Error(`apply did not finish in ${maxSteps} steps; last: ${progress.at(-1)}`);
}

export async function destroyUntilDone(
  provisioner: Provisioner,
  context: ProvisionContext,
  maxSteps = 40,
): Promise<string[]> {
  const progress: string[] = [];
  let state = { ...context.state };
  for (let step = 0; step < maxSteps; step++) {
    const result = await provisioner.destroy({ ...context, state });
    if (result.done) return progress;
    progress.push(result.progress);
    state = result.state;
  }
  throw new Error(`destroy did not finish in ${maxSteps} steps; last: ${progress.at(-1)}`);
}

/** The ARNs the Resource Groups Tagging API lists with the service's tag. */
export async function taggedWithService(aws: AwsClients, serviceId: string): Promise<string[]> {
  const tagging = await aws.resourceGroupsTagging();
  const answer = await tagging.send(
    new GetResourcesCommand({ TagFilters: [{ Key: TAG_SERVICE, Values: [serviceId] }] }),
  );
  return (answer.ResourceTagMappingList ?? []).map((mapping) => mapping.ResourceARN ?? "").sort();
}

/** What GET attributes lists for the service is exactly what its deployment answered, each with a value. */
export function expectListedSecrets(
  provisioner: Provisioner,
  resource: DriverResource,
  secrets: Record<string, string>,
) {
  const answered = Object.keys(secrets).filter((name) => secrets[name] !== "");
  expect(answered.sort()).toEqual([...provisioner.secretAttributeNames(resource)].sort());
}
