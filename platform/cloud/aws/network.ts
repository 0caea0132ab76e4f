import { configOf } from "../configs";
import type { ApplyResult, DestroyResult, ProvisionContext, Provisioner } from "./provisioner";
import type { Observation } from "../driver";
import { failingAs, runSteps, type State, changePlanOf } from "./common";
import { creationSteps, zonesOf } from "./network-creation";
import {
  ec2Of,
  emptyInventory,
  inventoryOf,
  partOf,
  parts,
  unwanted,
  withPart,
  type Inventory,
} from "./network-inventory";
import { teardownSteps } from "./network-teardown";

/**
 * A network: a VPC with the configured CIDR block, a public and a private subnet in each of 2 or 3 availability
 * zones, an internet gateway with the public route table, NAT gateways (one, or one per zone) with their Elastic
 * IPs and a private route table per zone, and a security group in which the environment's services reach each
 * other. Every piece carries the service's tags and its part (TAG_PART), and every call starts from what AWS
 * holds under those tags, so a call whose answer was lost is simply looked at again. Zones and NAT gateways
 * change in place (added, or removed after the routes stop using them); a VPC's CIDR block cannot change, so a
 * new one replaces the whole network, the old one being deleted first (it fails while services still use it).
 */

function outputsOf(inventory: Inventory, zones: string[]): State {
  const subnetIds = (partAt: (zone: number) => string) =>
    zones.map((_, zone) => withPart(inventory.subnets, partAt(zone))?.SubnetId ?? "").join(",");
  const vpc = withPart(inventory.vpcs, parts.vpc);
  return {
    vpcId: vpc?.VpcId ?? "",
    cidrBlock: vpc?.CidrBlock ?? "",
    availabilityZones: zones.join(","),
    publicSubnetIds: subnetIds(parts.publicSubnet),
    privateSubnetIds: subnetIds(parts.privateSubnet),
    securityGroupId: withPart(inventory.securityGroups, parts.securityGroup)?.GroupId ?? "",
  };
}

async function apply(context: ProvisionContext): Promise<ApplyResult> {
  const config = configOf(context.resource, "network");
  const ec2 = await ec2Of(context);
  const inventory = await failingAs("Reading the network", () => inventoryOf(ec2, context));
  const vpc = withPart(inventory.vpcs, parts.vpc);
  if (vpc && vpc.CidrBlock !== config.cidrBlock) {
    const replaced = await runSteps(
      teardownSteps(
        ec2,
        context,
        inventory,
        `Replacing the network (CIDR block ${vpc.CidrBlock} → ${config.cidrBlock})`,
      ),
      context.state,
    );
    // Torn down: the next call builds the new network.
    return replaced.done ? { done: false, state: {}, waitMs: 0, progress: "Creating the VPC" } : replaced;
  }
  const zones = await failingAs("Choosing availability zones", () =>
    zonesOf(ec2, inventory, config.availabilityZones),
  );
  const natCount = config.natGateways === "single" ? 1 : zones.length;
  const result = await runSteps(
    [
      ...creationSteps(ec2, context, config, inventory, zones),
      ...teardownSteps(
        ec2,
        context,
        unwanted(inventory, zones.length, natCount),
        "Removing what is no longer needed",
      ),
    ],
    context.state,
  );
  if (!result.done) return result;
  const outputs = outputsOf(inventory, zones);
  return { done: true, state: outputs, endpoint: null, secrets: {}, outputs };
}

async function destroy(context: ProvisionContext): Promise<DestroyResult> {
  const ec2 = await ec2Of(context);
  const inventory = await failingAs("Reading the network", () => inventoryOf(ec2, context));
  if (emptyInventory(inventory)) return { done: true };
  const result = await runSteps(
    teardownSteps(ec2, context, inventory, "Deleting the network"),
    context.state,
  );
  // Everything found was deleted: one more call confirms nothing tagged is left.
  return result.done ? { done: false, state: {}, waitMs: 0, progress: "Deleting the network" } : result;
}

async function observe(context: ProvisionContext): Promise<Observation> {
  const config = configOf(context.resource, "network");
  const inventory = await inventoryOf(await ec2Of(context), context);
  const vpc = withPart(inventory.vpcs, parts.vpc);
  if (!vpc) {
    return {
      state: "missing",
      message: "The network's VPC no longer exists: it was deleted outside the console",
    };
  }
  const natCount = config.natGateways === "single" ? 1 : config.availabilityZones;
  for (let index = 0; index < natCount; index++) {
    if (
      !inventory.natGateways.some(
        (gateway) => partOf(gateway) === parts.natGateway(index) && gateway.State === "available",
      )
    ) {
      return {
        state: "degraded",
        message: `NAT gateway ${index + 1} of the network is not available: private subnets cannot reach the internet`,
      };
    }
  }
  const gateway = withPart(inventory.internetGateways, parts.internetGateway);
  if (!gateway?.Attachments?.some((attachment) => attachment.VpcId === vpc.VpcId)) {
    return {
      state: "degraded",
      message: "The network's internet gateway is gone or detached: public subnets are offline",
    };
  }
  const subnetCount = inventory.subnets.length;
  if (subnetCount < 2 * config.availabilityZones) {
    return {
      state: "degraded",
      message: `The network has ${subnetCount} of its ${2 * config.availabilityZones} subnets: some were deleted outside the console`,
    };
  }
  return { state: "ok" };
}

export const networkProvisioner: Provisioner = {
  secretAttributeNames: () => [],
  apply,
  destroy,
  plan: (before, after) =>
    changePlanOf(before, after, {
      replace: ["config.cidrBlock"],
      inPlace: ["config.availabilityZones", "config.natGateways"],
    }),
  observe: (context) => failingAs("Checking the network", () => observe(context)),
};
