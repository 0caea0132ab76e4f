import type * as Ec2Sdk from "@aws-sdk/client-ec2";
import type { ServiceConfig } from "#contract/service-configs";
import { tagList, tagsOf } from "./naming";
import type { ProvisionContext } from "./provisioner";
import { ProvisionError, unlessMissing, type Step, type StepOutcome } from "./common";
import {
  NAT_POLL_MS,
  liveNatGateway,
  partOf,
  parts,
  subnetCidr,
  withPart,
  type Ec2,
  type Inventory,
} from "./network-inventory";

/**
 * The steps that build a network, in order, each looking at the inventory the call started from: the VPC (with DNS
 * host names), the internet gateway, subnets, the public route table, NAT gateways with their Elastic IPs, the
 * private route tables, the services' security group. A step that creates something ends the call.
 */

const ANYWHERE = "0.0.0.0/0";

function tagSpecification(
  context: ProvisionContext,
  resourceType: Ec2Sdk.ResourceType,
  part: string,
  name: string,
) {
  return [{ ResourceType: resourceType, Tags: tagList(tagsOf(context, part, name)) }];
}

/** A created piece's id goes in the state at once; the call ends so the engine saves it. */
function created(context: ProvisionContext, key: string, id: string | undefined, what: string): StepOutcome {
  context.log("info", `Created ${what} ${id ?? ""}`.trim());
  return { state: { [key]: id ?? "" }, waitMs: 0 };
}

/**
 * The zones in use, in order: each zone index keeps the zone its public subnet is in, and a new index takes the
 * first available zone (by name) not yet used.
 */
export async function zonesOf(ec2: Ec2, inventory: Inventory, count: number): Promise<string[]> {
  const used = Array.from({ length: 3 }, (_, zone) => {
    const subnet =
      withPart(inventory.subnets, parts.publicSubnet(zone)) ??
      withPart(inventory.subnets, parts.privateSubnet(zone));
    return subnet?.AvailabilityZone;
  });
  if (used.slice(0, count).every(Boolean)) return used.slice(0, count) as string[];
  const { AvailabilityZones = [] } = await ec2.client.send(
    new ec2.sdk.DescribeAvailabilityZonesCommand({
      Filters: [
        { Name: "state", Values: ["available"] },
        { Name: "zone-type", Values: ["availability-zone"] },
      ],
    }),
  );
  const available = AvailabilityZones.map((zone) => zone.ZoneName ?? "")
    .filter(Boolean)
    .sort();
  const zones: string[] = [];
  for (let zone = 0; zone < count; zone++) {
    const next = used[zone] ?? available.find((name) => !used.includes(name) && !zones.includes(name));
    if (!next) {
      throw new ProvisionError(
        `the region offers ${available.length} availability zones; the network asks for ${count}`,
        "InsufficientAvailabilityZones",
      );
    }
    zones.push(next);
  }
  return zones;
}

/** Points the table's default route (0.0.0.0/0) at `target`, creating or replacing it; true when it changed. */
async function routeTo(
  ec2: Ec2,
  table: Ec2Sdk.RouteTable,
  target: { GatewayId: string } | { NatGatewayId: string },
): Promise<boolean> {
  const route = table.Routes?.find((entry) => entry.DestinationCidrBlock === ANYWHERE);
  const targetId = "GatewayId" in target ? target.GatewayId : target.NatGatewayId;
  if (
    route &&
    (route.GatewayId === targetId || route.NatGatewayId === targetId) &&
    route.State !== "blackhole"
  ) {
    return false;
  }
  const request = { RouteTableId: table.RouteTableId, DestinationCidrBlock: ANYWHERE, ...target };
  if (route) await ec2.client.send(new ec2.sdk.ReplaceRouteCommand(request));
  else await ec2.client.send(new ec2.sdk.CreateRouteCommand(request));
  return true;
}

/** Associates the subnet with the table unless it already is; true when it changed. */
async function associate(ec2: Ec2, table: Ec2Sdk.RouteTable, subnetId: string | undefined): Promise<boolean> {
  if (!subnetId || table.Associations?.some((association) => association.SubnetId === subnetId)) return false;
  await ec2.client.send(
    new ec2.sdk.AssociateRouteTableCommand({ RouteTableId: table.RouteTableId, SubnetId: subnetId }),
  );
  return true;
}

export function creationSteps(
  ec2: Ec2,
  context: ProvisionContext,
  config: ServiceConfig<"network">,
  inventory: Inventory,
  zones: string[],
): Step[] {
  const { sdk, client } = ec2;
  const name = `${context.resource.environmentName}-${context.resource.name}`;
  const vpc = withPart(inventory.vpcs, parts.vpc);
  const vpcId = vpc?.VpcId ?? "";
  const natCount = config.natGateways === "single" ? 1 : zones.length;
  const subnetOf = (part: string) => withPart(inventory.subnets, part)?.SubnetId;
  const zoneIndexes = zones.map((_, zone) => zone);

  const subnetSteps = (kind: "public" | "private"): Step[] =>
    zoneIndexes.map((zone) => ({
      progress: `Creating the ${kind} subnet in ${zones[zone]}`,
      async run() {
        const part = kind === "public" ? parts.publicSubnet(zone) : parts.privateSubnet(zone);
        const subnet = withPart(inventory.subnets, part);
        if (!subnet) {
          const answer = await client.send(
            new sdk.CreateSubnetCommand({
              VpcId: vpcId,
              AvailabilityZone: zones[zone],
              CidrBlock: subnetCidr(config.cidrBlock, kind === "public" ? zone : 4 + zone),
              TagSpecifications: tagSpecification(context, "subnet", part, `${name}-${kind}-${zones[zone]}`),
            }),
          );
          return created(context, `${kind}SubnetId${zone + 1}`, answer.Subnet?.SubnetId, `${kind} subnet`);
        }
        // Instances started in a public subnet get a public address.
        if (kind === "public" && !subnet.MapPublicIpOnLaunch) {
          await client.send(
            new sdk.ModifySubnetAttributeCommand({
              SubnetId: subnet.SubnetId,
              MapPublicIpOnLaunch: { Value: true },
            }),
          );
        }
      },
    }));

  return [
    {
      progress: "Creating the VPC",
      async run() {
        if (vpc?.State === "pending") return { waitMs: 2_000, progress: "Waiting for the VPC" };
        if (vpc) return;
        const answer = await client.send(
          new sdk.CreateVpcCommand({
            CidrBlock: config.cidrBlock,
            TagSpecifications: tagSpecification(context, "vpc", parts.vpc, name),
          }),
        );
        return created(context, "vpcId", answer.Vpc?.VpcId, `VPC (${config.cidrBlock})`);
      },
    },
    {
      // Managed services (RDS, ElastiCache, EKS) answer with host names that need DNS inside the VPC.
      progress: "Enabling DNS host names",
      async run() {
        const { EnableDnsHostnames } = await client.send(
          new sdk.DescribeVpcAttributeCommand({ VpcId: vpcId, Attribute: "enableDnsHostnames" }),
        );
        if (EnableDnsHostnames?.Value) return;
        await client.send(
          new sdk.ModifyVpcAttributeCommand({ VpcId: vpcId, EnableDnsHostnames: { Value: true } }),
        );
      },
    },
    {
      progress: "Creating the internet gateway",
      async run() {
        const gateway = withPart(inventory.internetGateways, parts.internetGateway);
        if (!gateway) {
          const answer = await client.send(
            new sdk.CreateInternetGatewayCommand({
              TagSpecifications: tagSpecification(context, "internet-gateway", parts.internetGateway, name),
            }),
          );
          return created(
            context,
            "internetGatewayId",
            answer.InternetGateway?.InternetGatewayId,
            "internet gateway",
          );
        }
        if (gateway.Attachments?.some((attachment) => attachment.VpcId === vpcId)) return;
        await client.send(
          new sdk.AttachInternetGatewayCommand({
            InternetGatewayId: gateway.InternetGatewayId,
            VpcId: vpcId,
          }),
        );
      },
    },
    ...subnetSteps("public"),
    ...subnetSteps("private"),
    {
      progress: "Routing the public subnets to the internet gateway",
      async run() {
        const table = withPart(inventory.routeTables, parts.publicRouteTable);
        if (!table) {
          const answer = await client.send(
            new sdk.CreateRouteTableCommand({
              VpcId: vpcId,
              TagSpecifications: tagSpecification(
                context,
                "route-table",
                parts.publicRouteTable,
                `${name}-public`,
              ),
            }),
          );
          return created(
            context,
            "publicRouteTableId",
            answer.RouteTable?.RouteTableId,
            "public route table",
          );
        }
        const gatewayId =
          withPart(inventory.internetGateways, parts.internetGateway)?.InternetGatewayId ?? "";
        let changed = await routeTo(ec2, table, { GatewayId: gatewayId });
        for (const zone of zoneIndexes)
          changed = (await associate(ec2, table, subnetOf(parts.publicSubnet(zone)))) || changed;
        if (changed) return { waitMs: 0 };
      },
    },
    ...Array.from(
      { length: natCount },
      (_, index): Step => ({
        progress: `Creating NAT gateway ${index + 1} in ${zones[index]}`,
        async run() {
          const address = withPart(inventory.addresses, parts.natAddress(index));
          if (!address) {
            const answer = await client.send(
              new sdk.AllocateAddressCommand({
                Domain: "vpc",
                TagSpecifications: tagSpecification(
                  context,
                  "elastic-ip",
                  parts.natAddress(index),
                  `${name}-nat-${index + 1}`,
                ),
              }),
            );
            return created(context, `natAddressId${index + 1}`, answer.AllocationId, "Elastic IP");
          }
          if (liveNatGateway(inventory, parts.natGateway(index))) return;
          const failed = inventory.natGateways.find(
            (gateway) => partOf(gateway) === parts.natGateway(index) && gateway.State === "failed",
          );
          if (failed) {
            // Deleted now, so that a retry starts a new one.
            await unlessMissing(
              () => client.send(new sdk.DeleteNatGatewayCommand({ NatGatewayId: failed.NatGatewayId })),
              "NatGatewayNotFound",
            );
            throw new ProvisionError(
              `NAT gateway ${failed.NatGatewayId} failed: ${failed.FailureMessage ?? "AWS gave no reason"}`,
              failed.FailureCode ?? null,
            );
          }
          const answer = await client.send(
            new sdk.CreateNatGatewayCommand({
              SubnetId: subnetOf(parts.publicSubnet(index)),
              AllocationId: address.AllocationId,
              ConnectivityType: "public",
              TagSpecifications: tagSpecification(
                context,
                "natgateway",
                parts.natGateway(index),
                `${name}-nat-${index + 1}`,
              ),
            }),
          );
          return created(context, `natGatewayId${index + 1}`, answer.NatGateway?.NatGatewayId, "NAT gateway");
        },
      }),
    ),
    {
      progress: "Waiting for the NAT gateways to become available",
      async run() {
        const gateways = Array.from({ length: natCount }, (_, index) =>
          liveNatGateway(inventory, parts.natGateway(index)),
        );
        const pending = gateways.find((gateway) => gateway?.State !== "available");
        if (!pending) return;
        return {
          waitMs: NAT_POLL_MS,
          progress: `Waiting for NAT gateway ${pending.NatGatewayId ?? ""} to become available (${pending.State ?? ""})`,
        };
      },
    },
    ...zoneIndexes.map(
      (zone): Step => ({
        progress: `Routing the private subnet in ${zones[zone]} through its NAT gateway`,
        async run() {
          const table = withPart(inventory.routeTables, parts.privateRouteTable(zone));
          if (!table) {
            const answer = await client.send(
              new sdk.CreateRouteTableCommand({
                VpcId: vpcId,
                TagSpecifications: tagSpecification(
                  context,
                  "route-table",
                  parts.privateRouteTable(zone),
                  `${name}-private-${zones[zone]}`,
                ),
              }),
            );
            return created(
              context,
              `privateRouteTableId${zone + 1}`,
              answer.RouteTable?.RouteTableId,
              "private route table",
            );
          }
          const nat = liveNatGateway(inventory, parts.natGateway(natCount === 1 ? 0 : zone));
          let changed = await routeTo(ec2, table, { NatGatewayId: nat?.NatGatewayId ?? "" });
          changed = (await associate(ec2, table, subnetOf(parts.privateSubnet(zone)))) || changed;
          if (changed) return { waitMs: 0 };
        },
      }),
    ),
    {
      progress: "Creating the services' security group",
      async run() {
        const group = withPart(inventory.securityGroups, parts.securityGroup);
        if (!group) {
          const answer = await client.send(
            new sdk.CreateSecurityGroupCommand({
              GroupName: `${name}-services`,
              Description: `Services of the environment ${context.resource.environmentName}: they reach each other`,
              VpcId: vpcId,
              TagSpecifications: tagSpecification(
                context,
                "security-group",
                parts.securityGroup,
                `${name}-services`,
              ),
            }),
          );
          return created(context, "securityGroupId", answer.GroupId, "security group");
        }
        const selfReferenced = group.IpPermissions?.some(
          (permission) =>
            permission.IpProtocol === "-1" &&
            permission.UserIdGroupPairs?.some((pair) => pair.GroupId === group.GroupId),
        );
        if (selfReferenced) return;
        await client.send(
          new sdk.AuthorizeSecurityGroupIngressCommand({
            GroupId: group.GroupId,
            IpPermissions: [{ IpProtocol: "-1", UserIdGroupPairs: [{ GroupId: group.GroupId }] }],
          }),
        );
      },
    },
  ];
}
