import {
  CreateSubnetCommand,
  DeleteNatGatewayCommand,
  DeleteSubnetCommand,
  DescribeAddressesCommand,
  DescribeNatGatewaysCommand,
  DescribeRouteTablesCommand,
  DescribeSecurityGroupsCommand,
  DescribeSubnetsCommand,
  DescribeVpcAttributeCommand,
  DescribeVpcsCommand,
} from "@aws-sdk/client-ec2";
import { describe, expect, it } from "vitest";
import { networkProvisioner } from "./network";
import { subnetCidr } from "./network-inventory";
import { TAG_SERVICE } from "./provisioner";
import {
  applyUntilDone,
  awsClientsFor,
  destroyUntilDone,
  resourceOf,
  setUpMoto,
  taggedResources,
  testService,
  type TestService,
} from "../../testing/aws";
import { expectListedSecrets } from "../../testing/aws-provisioning";

const moto = setUpMoto({ warmUp: true });
const { aws } = moto;

const serviceFilter = (service: TestService) => [
  { Name: `tag:${TAG_SERVICE}`, Values: [service.resource.id] },
];
const split = (ids: string | undefined) => (ids ? ids.split(",") : []);

async function ec2() {
  return aws.ec2();
}

async function subnetsOf(ids: string[]) {
  const { Subnets = [] } = await (await ec2()).send(new DescribeSubnetsCommand({ SubnetIds: ids }));
  return ids.map((id) => Subnets.find((subnet) => subnet.SubnetId === id));
}

async function routeTablesOf(vpcId: string) {
  const { RouteTables = [] } = await (
    await ec2()
  ).send(new DescribeRouteTablesCommand({ Filters: [{ Name: "vpc-id", Values: [vpcId] }] }));
  return RouteTables;
}

async function liveNatGateways(vpcId: string) {
  const { NatGateways = [] } = await (
    await ec2()
  ).send(new DescribeNatGatewaysCommand({ Filter: [{ Name: "vpc-id", Values: [vpcId] }] }));
  return NatGateways.filter((gateway) => gateway.State !== "deleted");
}

async function elasticIps(service: TestService) {
  const { Addresses = [] } = await (
    await ec2()
  ).send(new DescribeAddressesCommand({ Filters: serviceFilter(service) }));
  return Addresses;
}

/** The default route of the route table a subnet is associated with. */
function defaultRouteOf(tables: Awaited<ReturnType<typeof routeTablesOf>>, subnetId: string | undefined) {
  const table = tables.find((candidate) =>
    candidate.Associations?.some((association) => association.SubnetId === subnetId),
  );
  return table?.Routes?.find((route) => route.DestinationCidrBlock === "0.0.0.0/0");
}

describe("network provisioner", () => {
  it("splits the CIDR block in eight, public subnets first and private ones from the fifth part", () => {
    expect([0, 1, 2, 4, 5, 6].map((index) => subnetCidr("10.0.0.0/16", index))).toEqual([
      "10.0.0.0/19",
      "10.0.32.0/19",
      "10.0.64.0/19",
      "10.0.128.0/19",
      "10.0.160.0/19",
      "10.0.192.0/19",
    ]);
    expect(subnetCidr("192.168.4.0/24", 5)).toBe("192.168.4.160/27");
  });

  it("builds the VPC across three zones, moves to two zones with a NAT gateway each, replaces it for a new CIDR block, and deletes it", async () => {
    const service = testService(aws, resourceOf("network", {}, { name: "core" }));
    const created = await applyUntilDone(networkProvisioner, service);
    expectListedSecrets(networkProvisioner, service.resource, created.secrets);
    const { outputs } = created;

    expect(created.endpoint).toBeNull();
    expect(created.secrets).toEqual({});
    expect(outputs).toEqual({
      vpcId: expect.stringMatching(/^vpc-/),
      cidrBlock: "10.0.0.0/16",
      availabilityZones: "eu-west-1a,eu-west-1b,eu-west-1c",
      publicSubnetIds: expect.stringMatching(/^subnet-[^,]+,subnet-[^,]+,subnet-[^,]+$/),
      privateSubnetIds: expect.stringMatching(/^subnet-[^,]+,subnet-[^,]+,subnet-[^,]+$/),
      securityGroupId: expect.stringMatching(/^sg-/),
    });
    const vpcId = outputs.vpcId ?? "";
    const { EnableDnsHostnames } = await (
      await ec2()
    ).send(new DescribeVpcAttributeCommand({ VpcId: vpcId, Attribute: "enableDnsHostnames" }));
    expect(EnableDnsHostnames?.Value).toBe(true);

    const publicSubnets = await subnetsOf(split(outputs.publicSubnetIds));
    const privateSubnets = await subnetsOf(split(outputs.privateSubnetIds));
    expect(
      publicSubnets.map((subnet) => [
        subnet?.AvailabilityZone,
        subnet?.CidrBlock,
        subnet?.MapPublicIpOnLaunch,
      ]),
    ).toEqual([
      ["eu-west-1a", "10.0.0.0/19", true],
      ["eu-west-1b", "10.0.32.0/19", true],
      ["eu-west-1c", "10.0.64.0/19", true],
    ]);
    expect(privateSubnets.map((subnet) => [subnet?.AvailabilityZone, subnet?.CidrBlock])).toEqual([
      ["eu-west-1a", "10.0.128.0/19"],
      ["eu-west-1b", "10.0.160.0/19"],
      ["eu-west-1c", "10.0.192.0/19"],
    ]);

    const [nat, ...otherNats] = await liveNatGateways(vpcId);
    expect(otherNats).toEqual([]);
    expect(nat).toMatchObject({ State: "available", SubnetId: publicSubnets[0]?.SubnetId });
    expect(await elasticIps(service)).toHaveLength(1);
    const tables = await routeTablesOf(vpcId);
    for (const subnet of publicSubnets) {
      expect(defaultRouteOf(tables, subnet?.SubnetId)?.GatewayId).toMatch(/^igw-/);
    }
    for (const subnet of privateSubnets) {
      expect(defaultRouteOf(tables, subnet?.SubnetId)?.NatGatewayId).toBe(nat?.NatGatewayId);
    }
    const { SecurityGroups = [] } = await (
      await ec2()
    ).send(new DescribeSecurityGroupsCommand({ GroupIds: [outputs.securityGroupId ?? ""] }));
    expect(SecurityGroups[0]?.IpPermissions).toEqual([
      expect.objectContaining({
        IpProtocol: "-1",
        UserIdGroupPairs: [expect.objectContaining({ GroupId: outputs.securityGroupId })],
      }),
    ]);
    // VPC, 6 subnets, internet gateway, 4 route tables, NAT gateway, security group (moto's tagging API lists no EIPs).
    expect(await taggedResources(aws, service.resource.id)).toHaveLength(14);

    const before = service.resource;
    service.resource = {
      ...before,
      config: { ...before.config, availabilityZones: 2, natGateways: "one-per-zone" },
    };
    expect(networkProvisioner.plan(before, service.resource)).toEqual({
      inPlace: ["config.availabilityZones", "config.natGateways"],
      replace: [],
    });
    const resized = await applyUntilDone(networkProvisioner, service);
    expect(resized.outputs).toMatchObject({ vpcId, availabilityZones: "eu-west-1a,eu-west-1b" });
    expect(split(resized.outputs.publicSubnetIds)).toEqual(split(outputs.publicSubnetIds).slice(0, 2));
    const nats = await liveNatGateways(vpcId);
    expect(nats.map((gateway) => gateway.SubnetId).sort()).toEqual(
      split(outputs.publicSubnetIds).slice(0, 2).sort(),
    );
    expect(await elasticIps(service)).toHaveLength(2);
    const resizedTables = await routeTablesOf(vpcId);
    split(resized.outputs.privateSubnetIds).forEach((subnetId, zone) => {
      const zoneNat = nats.find((gateway) => gateway.SubnetId === split(outputs.publicSubnetIds)[zone]);
      expect(defaultRouteOf(resizedTables, subnetId)?.NatGatewayId).toBe(zoneNat?.NatGatewayId);
    });
    const { Subnets: remaining = [] } = await (
      await ec2()
    ).send(new DescribeSubnetsCommand({ Filters: [{ Name: "vpc-id", Values: [vpcId] }] }));
    expect(remaining).toHaveLength(4);

    const resizedResource = service.resource;
    service.resource = {
      ...resizedResource,
      config: { ...resizedResource.config, cidrBlock: "10.1.0.0/16" },
    };
    expect(networkProvisioner.plan(resizedResource, service.resource)).toEqual({
      inPlace: [],
      replace: ["config.cidrBlock"],
    });
    const replaced = await applyUntilDone(networkProvisioner, service);
    expect(replaced.outputs.vpcId).not.toBe(vpcId);
    expect(replaced.outputs.cidrBlock).toBe("10.1.0.0/16");
    expect(
      replaced.progress.some((step) =>
        step.startsWith("Replacing the network (CIDR block 10.0.0.0/16 → 10.1.0.0/16)"),
      ),
    ).toBe(true);
    const { Vpcs = [] } = await (
      await ec2()
    ).send(new DescribeVpcsCommand({ Filters: serviceFilter(service) }));
    expect(Vpcs.map((vpc) => vpc.VpcId)).toEqual([replaced.outputs.vpcId]);

    await destroyUntilDone(networkProvisioner, service);
    expect(await taggedResources(aws, service.resource.id)).toEqual([]);
    expect(await elasticIps(service)).toEqual([]);
  }, 60_000);

  it("creates nothing twice when calls are repeated from a state that was never saved", async () => {
    const service = testService(aws, resourceOf("network", { availabilityZones: 2 }, { name: "crashy" }));
    // Every call starts from the empty state, as after a crash before any save; what exists is found by its tags.
    for (let call = 0; call < 40; call++) {
      const result = await networkProvisioner.apply(service.context({ state: {} }));
      if (result.done) break;
    }
    const done = await applyUntilDone(networkProvisioner, service);
    const { Vpcs = [] } = await (
      await ec2()
    ).send(new DescribeVpcsCommand({ Filters: serviceFilter(service) }));
    expect(Vpcs).toHaveLength(1);
    expect(await liveNatGateways(done.outputs.vpcId ?? "")).toHaveLength(1);
    expect(await elasticIps(service)).toHaveLength(1);
    // VPC, 4 subnets, internet gateway, 3 route tables, NAT gateway, security group.
    expect(await taggedResources(aws, service.resource.id)).toHaveLength(11);

    await destroyUntilDone(networkProvisioner, service);
    expect(await taggedResources(aws, service.resource.id)).toEqual([]);
  }, 60_000);

  it("passes on AWS's refusal of a CIDR block, and says when the region has too few zones", async () => {
    const invalid = testService(aws, resourceOf("network", { cidrBlock: "10.0.0.0/15" }, { name: "wide" }));
    await expect(applyUntilDone(networkProvisioner, invalid)).rejects.toMatchObject({
      code: "InvalidVpc.Range",
      message: expect.stringMatching(
        /^Creating the VPC failed: AWS answered InvalidVpc\.Range: .*10\.0\.0\.0\/15/,
      ),
    });

    const california = awsClientsFor(moto, "us-west-1");
    const crowded = testService(
      california,
      resourceOf("network", { availabilityZones: 3 }, { name: "crowded" }),
    );
    await expect(applyUntilDone(networkProvisioner, crowded)).rejects.toMatchObject({
      code: "InsufficientAvailabilityZones",
      message:
        "Choosing availability zones failed: the region offers 2 availability zones; the network asks for 3",
    });
    await destroyUntilDone(networkProvisioner, crowded);
    expect(await taggedResources(california, crowded.resource.id)).toEqual([]);
    california.destroy();
  });

  it("waits for what still uses the VPC, then gives up with AWS's DependencyViolation", async () => {
    const service = testService(aws, resourceOf("network", { availabilityZones: 2 }, { name: "busy" }));
    const done = await applyUntilDone(networkProvisioner, service);
    // Someone added a subnet of their own to the VPC.
    const { Subnet } = await (
      await ec2()
    ).send(new CreateSubnetCommand({ VpcId: done.outputs.vpcId, CidrBlock: "10.0.96.0/19" }));

    let waiting = await networkProvisioner.destroy(service.context());
    while (!waiting.done && waiting.waitMs === 0) {
      service.state = waiting.state;
      waiting = await networkProvisioner.destroy(service.context());
    }
    expect(waiting).toMatchObject({
      done: false,
      waitMs: 15_000,
      progress: `Waiting for AWS to release what still uses the VPC ${done.outputs.vpcId}`,
    });
    if (waiting.done) return;
    service.state = waiting.state;
    const later = new Date(Date.now() + 16 * 60_000);
    await expect(networkProvisioner.destroy(service.context({ now: later }))).rejects.toMatchObject({
      code: "DependencyViolation",
      message: expect.stringMatching(
        /^Deleting the network: deleting the VPC failed: gave up after 15 minutes: The vpc .+ has dependencies and cannot be deleted\.$/,
      ),
    });

    await (await ec2()).send(new DeleteSubnetCommand({ SubnetId: Subnet?.SubnetId }));
    await destroyUntilDone(networkProvisioner, service);
    expect(await taggedResources(aws, service.resource.id)).toEqual([]);
  }, 60_000);

  it("reports a NAT gateway deleted outside the console, and a deleted VPC", async () => {
    const service = testService(aws, resourceOf("network", { availabilityZones: 2 }, { name: "watched" }));
    const done = await applyUntilDone(networkProvisioner, service);
    expect(await networkProvisioner.observe(service.context())).toEqual({ state: "ok" });

    const [nat] = await liveNatGateways(done.outputs.vpcId ?? "");
    await (await ec2()).send(new DeleteNatGatewayCommand({ NatGatewayId: nat?.NatGatewayId }));
    expect(await networkProvisioner.observe(service.context())).toEqual({
      state: "degraded",
      message: "NAT gateway 1 of the network is not available: private subnets cannot reach the internet",
    });

    await destroyUntilDone(networkProvisioner, service);
    expect(await networkProvisioner.observe(service.context())).toEqual({
      state: "missing",
      message: "The network's VPC no longer exists: it was deleted outside the console",
    });
  }, 60_000);
});
