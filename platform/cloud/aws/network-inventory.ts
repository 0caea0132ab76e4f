import type * as Ec2Sdk from "@aws-sdk/client-ec2";
import { ownedBy, tagRecord, TAG_PART } from "./naming";
import { TAG_SERVICE, type ProvisionContext } from "./provisioner";

/**
 * What a network service has in EC2, found by the service's tag: every network call starts from this rather than
 * from remembered ids, so a call whose answer was lost is simply looked at again. Each piece says which part of
 * the network it is in its TAG_PART tag.
 */

/** NAT gateways take a minute or two to come up or go away. */
export const NAT_POLL_MS = 15_000;

export type Ec2 = { client: Ec2Sdk.EC2Client; sdk: typeof Ec2Sdk };

export async function ec2Of(context: ProvisionContext): Promise<Ec2> {
  return { client: await context.aws.ec2(), sdk: await import("@aws-sdk/client-ec2") };
}

export const parts = {
  vpc: "vpc",
  internetGateway: "internet-gateway",
  publicSubnet: (zone: number) => `public-subnet-${zone + 1}`,
  privateSubnet: (zone: number) => `private-subnet-${zone + 1}`,
  publicRouteTable: "public-route-table",
  privateRouteTable: (zone: number) => `private-route-table-${zone + 1}`,
  natAddress: (index: number) => `nat-address-${index + 1}`,
  natGateway: (index: number) => `nat-gateway-${index + 1}`,
  securityGroup: "security-group",
};

/**
 * The n-th of eight equal blocks of `cidr`, the address plan of the subnets: public ones take blocks 0-2 and
 * private ones 4-6, so a third zone fits beside the first two without renumbering anything.
 */
export function subnetCidr(cidr: string, index: number): string {
  const [address = "", prefixText = ""] = cidr.split("/");
  const base = address.split(".").reduce((sum, octet) => sum * 256 + Number(octet), 0);
  const prefix = Number(prefixText) + 3;
  const start = base + index * 2 ** (32 - prefix);
  const octets = [24, 16, 8, 0].map((shift) => Math.floor(start / 2 ** shift) % 256);
  return `${octets.join(".")}/${prefix}`;
}

/** Everything this service has in EC2, found by its tags (each item's part in its TAG_PART tag). */
export type Inventory = {
  vpcs: Ec2Sdk.Vpc[];
  internetGateways: Ec2Sdk.InternetGateway[];
  subnets: Ec2Sdk.Subnet[];
  routeTables: Ec2Sdk.RouteTable[];
  natGateways: Ec2Sdk.NatGateway[];
  addresses: Ec2Sdk.Address[];
  securityGroups: Ec2Sdk.SecurityGroup[];
};
export type Tagged = { Tags?: Ec2Sdk.Tag[] };

export async function inventoryOf(ec2: Ec2, context: ProvisionContext): Promise<Inventory> {
  const Filters = [{ Name: `tag:${TAG_SERVICE}`, Values: [context.tags[TAG_SERVICE] ?? ""] }];
  const { sdk, client } = ec2;
  // Also filtered here: not every endpoint honours every tag filter (moto ignores it for NAT gateways).
  const ours = <Item extends Tagged>(items: Item[] | undefined) =>
    (items ?? []).filter((item) => ownedBy(context, tagRecord(item.Tags)));
  const [vpcs, internetGateways, subnets, routeTables, natGateways, addresses, securityGroups] =
    await Promise.all([
      client.send(new sdk.DescribeVpcsCommand({ Filters })).then((answer) => ours(answer.Vpcs)),
      client
        .send(new sdk.DescribeInternetGatewaysCommand({ Filters }))
        .then((answer) => ours(answer.InternetGateways)),
      client.send(new sdk.DescribeSubnetsCommand({ Filters })).then((answer) => ours(answer.Subnets)),
      client.send(new sdk.DescribeRouteTablesCommand({ Filters })).then((answer) => ours(answer.RouteTables)),
      client
        .send(new sdk.DescribeNatGatewaysCommand({ Filter: Filters }))
        .then((answer) => ours(answer.NatGateways).filter((gateway) => gateway.State !== "deleted")),
      client.send(new sdk.DescribeAddressesCommand({ Filters })).then((answer) => ours(answer.Addresses)),
      client
        .send(new sdk.DescribeSecurityGroupsCommand({ Filters }))
        .then((answer) => ours(answer.SecurityGroups)),
    ]);
  return { vpcs, internetGateways, subnets, routeTables, natGateways, addresses, securityGroups };
}

export const partOf = (item: Tagged) => tagRecord(item.Tags)[TAG_PART] ?? "";
export const withPart = <Item extends Tagged>(items: Item[], part: string) =>
  items.find((item) => partOf(item) === part);
/** NAT gateways that are, or will be, usable. */
export const liveNatGateway = (inventory: Inventory, part: string) =>
  inventory.natGateways.find(
    (gateway) => partOf(gateway) === part && (gateway.State === "pending" || gateway.State === "available"),
  );

/** The pieces of the inventory no longer wanted: zones beyond the configured count, NAT gateways beyond need. */
export function unwanted(inventory: Inventory, zoneCount: number, natCount: number): Inventory {
  const beyond = (count: number, partAt: (index: number) => string) => (item: Tagged) =>
    [0, 1, 2].slice(count).some((index) => partOf(item) === partAt(index));
  return {
    vpcs: [],
    internetGateways: [],
    subnets: inventory.subnets.filter(
      (subnet) =>
        beyond(zoneCount, parts.publicSubnet)(subnet) || beyond(zoneCount, parts.privateSubnet)(subnet),
    ),
    routeTables: inventory.routeTables.filter(beyond(zoneCount, parts.privateRouteTable)),
    natGateways: inventory.natGateways.filter(beyond(natCount, parts.natGateway)),
    addresses: inventory.addresses.filter(beyond(natCount, parts.natAddress)),
    securityGroups: [],
  };
}

export const emptyInventory = (inventory: Inventory) =>
  Object.values(inventory).every((items) => items.length === 0);
