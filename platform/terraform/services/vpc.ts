import type {
  Address,
  InternetGateway,
  IpPermission,
  NatGateway,
  Route,
  RouteTable,
  SecurityGroup,
  Subnet,
  Vpc,
} from "@aws-sdk/client-ec2";
import {
  attributes,
  block,
  nameTagOf,
  Reference,
  tagsOf,
  type HclBlock,
  type HclValue,
  type ScannedResource,
} from "../model";
import { collect, definedStrings, type ServiceScanner } from "./service-scanner";

export type VpcInventory = {
  vpcs: Vpc[];
  subnets: Subnet[];
  routeTables: RouteTable[];
  internetGateways: InternetGateway[];
  natGateways: NatGateway[];
  securityGroups: SecurityGroup[];
  /** Elastic IPs; the NAT gateways' are exported with them. */
  addresses?: Address[];
};

const service = "vpc";

function vpcReference(vpcId: string | undefined): Reference | undefined {
  return vpcId ? new Reference("aws_vpc", vpcId) : undefined;
}

/** A route's target: internet and NAT gateways are references, other targets their AWS ids. */
function routeTarget(route: Route): Record<string, HclValue | undefined> {
  const gatewayId = route.GatewayId;
  return {
    gateway_id:
      gatewayId?.startsWith("igw-") === true
        ? new Reference("aws_internet_gateway", gatewayId)
        : gatewayId?.startsWith("vgw-") === true
          ? gatewayId
          : undefined,
    vpc_endpoint_id: gatewayId?.startsWith("vpce-") === true ? gatewayId : undefined,
    nat_gateway_id: route.NatGatewayId ? new Reference("aws_nat_gateway", route.NatGatewayId) : undefined,
    transit_gateway_id: route.TransitGatewayId,
    vpc_peering_connection_id: route.VpcPeeringConnectionId,
    egress_only_gateway_id: route.EgressOnlyInternetGatewayId,
    network_interface_id: route.GatewayId || route.NatGatewayId ? undefined : route.NetworkInterfaceId,
  };
}

/** Routes the user made: the VPC's local route and propagated routes are not configuration. */
function isConfiguredRoute(route: Route): boolean {
  return route.GatewayId !== "local" && route.Origin !== "EnableVgwRoutePropagation";
}

/**
 * One block per permission and rule description (AWS keeps a description per source, Terraform per block).
 * Other security groups are named by id, never by reference: two groups that allow each other would otherwise
 * form a dependency cycle Terraform refuses.
 */
function ruleBlocks(kind: "ingress" | "egress", permissions: IpPermission[] | undefined, groupId: string) {
  const blocks: HclBlock[] = [];
  for (const permission of permissions ?? []) {
    const byDescription = new Map<
      string,
      { cidr: string[]; ipv6: string[]; prefixLists: string[]; groups: string[]; self: boolean }
    >();
    const sourcesOf = (description: string | undefined) => {
      const key = description ?? "";
      let sources = byDescription.get(key);
      if (!sources) {
        sources = { cidr: [], ipv6: [], prefixLists: [], groups: [], self: false };
        byDescription.set(key, sources);
      }
      return sources;
    };
    for (const range of permission.IpRanges ?? []) {
      if (range.CidrIp) sourcesOf(range.Description).cidr.push(range.CidrIp);
    }
    for (const range of permission.Ipv6Ranges ?? []) {
      if (range.CidrIpv6) sourcesOf(range.Description).ipv6.push(range.CidrIpv6);
    }
    for (const prefixList of permission.PrefixListIds ?? []) {
      if (prefixList.PrefixListId)
        sourcesOf(prefixList.Description).prefixLists.push(prefixList.PrefixListId);
    }
    for (const pair of permission.UserIdGroupPairs ?? []) {
      if (!pair.GroupId) continue;
      const sources = sourcesOf(pair.Description);
      if (pair.GroupId === groupId) sources.self = true;
      else sources.groups.push(pair.GroupId);
    }
    for (const [description, sources] of byDescription) {
      blocks.push(
        block(
          kind,
          attributes({
            description: description || undefined,
            from_port: permission.FromPort ?? 0,
            to_port: permission.ToPort ?? 0,
            protocol: permission.IpProtocol ?? "-1",
            cidr_blocks: sources.cidr,
            ipv6_cidr_blocks: sources.ipv6,
            prefix_list_ids: sources.prefixLists,
            security_groups: sources.groups,
            self: sources.self || undefined,
          }),
        ),
      );
    }
  }
  return blocks;
}

export const vpcScanner: ServiceScanner<VpcInventory> = {
  service,
  permissions: [
    "ec2:DescribeVpcs",
    "ec2:DescribeSubnets",
    "ec2:DescribeRouteTables",
    "ec2:DescribeInternetGateways",
    "ec2:DescribeNatGateways",
    "ec2:DescribeSecurityGroups",
    "ec2:DescribeAddresses",
  ],

  async read(clients) {
    const {
      DescribeAddressesCommand,
      paginateDescribeInternetGateways,
      paginateDescribeNatGateways,
      paginateDescribeRouteTables,
      paginateDescribeSecurityGroups,
      paginateDescribeSubnets,
      paginateDescribeVpcs,
    } = await import("@aws-sdk/client-ec2");
    const client = await clients.ec2();
    const [vpcs, subnets, routeTables, internetGateways, natGateways, securityGroups, addresses] =
      await Promise.all([
        collect(paginateDescribeVpcs({ client }, {}), (page) => page.Vpcs),
        collect(paginateDescribeSubnets({ client }, {}), (page) => page.Subnets),
        collect(paginateDescribeRouteTables({ client }, {}), (page) => page.RouteTables),
        collect(paginateDescribeInternetGateways({ client }, {}), (page) => page.InternetGateways),
        collect(
          paginateDescribeNatGateways(
            { client },
            { Filter: [{ Name: "state", Values: ["pending", "available"] }] },
          ),
          (page) => page.NatGateways,
        ),
        collect(paginateDescribeSecurityGroups({ client }, {}), (page) => page.SecurityGroups),
        // Not paginated: an account has a handful (5 per region by default).
        client.send(new DescribeAddressesCommand({})).then((answer) => answer.Addresses ?? []),
      ]);
    return { vpcs, subnets, routeTables, internetGateways, natGateways, securityGroups, addresses };
  },

  toResources(raw, { defaultVpcIds }) {
    const resources: ScannedResource[] = [];
    const exported = (vpcId: string | undefined) => Boolean(vpcId) && !defaultVpcIds.has(vpcId ?? "");
    const subnetNames = new Map(raw.subnets.map((subnet) => [subnet.SubnetId, nameTagOf(subnet.Tags)]));

    for (const vpc of raw.vpcs) {
      if (!vpc.VpcId || !exported(vpc.VpcId)) continue;
      resources.push({
        service,
        type: "aws_vpc",
        awsId: vpc.VpcId,
        importId: vpc.VpcId,
        nameHint: nameTagOf(vpc.Tags) ?? vpc.VpcId,
        body: attributes({
          cidr_block: vpc.CidrBlock,
          instance_tenancy:
            vpc.InstanceTenancy && vpc.InstanceTenancy !== "default" ? vpc.InstanceTenancy : undefined,
          tags: tagsOf(vpc.Tags),
        }),
      });
    }

    for (const subnet of raw.subnets) {
      if (!subnet.SubnetId || !exported(subnet.VpcId)) continue;
      resources.push({
        service,
        type: "aws_subnet",
        awsId: subnet.SubnetId,
        importId: subnet.SubnetId,
        nameHint: nameTagOf(subnet.Tags) ?? subnet.SubnetId,
        body: attributes({
          vpc_id: vpcReference(subnet.VpcId),
          cidr_block: subnet.CidrBlock,
          availability_zone: subnet.AvailabilityZone,
          map_public_ip_on_launch: subnet.MapPublicIpOnLaunch ? true : undefined,
          tags: tagsOf(subnet.Tags),
        }),
      });
    }

    for (const gateway of raw.internetGateways) {
      const vpcId = gateway.Attachments?.[0]?.VpcId;
      if (!gateway.InternetGatewayId || (vpcId && !exported(vpcId))) continue;
      resources.push({
        service,
        type: "aws_internet_gateway",
        awsId: gateway.InternetGatewayId,
        importId: gateway.InternetGatewayId,
        nameHint: nameTagOf(gateway.Tags) ?? gateway.InternetGatewayId,
        body: attributes({ vpc_id: vpcReference(vpcId), tags: tagsOf(gateway.Tags) }),
      });
    }

    const addresses = new Map((raw.addresses ?? []).map((address) => [address.AllocationId, address]));
    for (const gateway of raw.natGateways) {
      if (!gateway.NatGatewayId || !exported(gateway.VpcId)) continue;
      const isPrivate = gateway.ConnectivityType === "private";
      const allocationId = isPrivate ? undefined : gateway.NatGatewayAddresses?.[0]?.AllocationId;
      const address = addresses.get(allocationId);
      if (allocationId && address) {
        resources.push({
          service,
          type: "aws_eip",
          awsId: allocationId,
          importId: allocationId,
          nameHint: nameTagOf(address.Tags) ?? allocationId,
          body: attributes({ domain: "vpc", tags: tagsOf(address.Tags) }),
          // The Tagging API may not list Elastic IPs: an environment's export also knows them by these.
          tags: tagsOf(address.Tags),
        });
      }
      resources.push({
        service,
        type: "aws_nat_gateway",
        awsId: gateway.NatGatewayId,
        importId: gateway.NatGatewayId,
        nameHint: nameTagOf(gateway.Tags) ?? gateway.NatGatewayId,
        body: attributes({
          allocation_id: allocationId && address ? new Reference("aws_eip", allocationId) : allocationId,
          connectivity_type: isPrivate ? "private" : undefined,
          subnet_id: gateway.SubnetId ? new Reference("aws_subnet", gateway.SubnetId) : undefined,
          tags: tagsOf(gateway.Tags),
        }),
      });
    }

    for (const table of raw.routeTables) {
      if (!table.RouteTableId || !exported(table.VpcId)) continue;
      // The main route table comes with the VPC; Terraform manages it as aws_default_route_table, not here.
      if (table.Associations?.some((association) => association.Main)) continue;
      const tableId = table.RouteTableId;
      const tableName = nameTagOf(table.Tags) ?? tableId;
      const routes = (table.Routes ?? []).filter(isConfiguredRoute).map((route) =>
        block(
          "route",
          attributes({
            cidr_block: route.DestinationCidrBlock,
            ipv6_cidr_block: route.DestinationIpv6CidrBlock,
            destination_prefix_list_id: route.DestinationPrefixListId,
            ...routeTarget(route),
          }),
        ),
      );
      resources.push({
        service,
        type: "aws_route_table",
        awsId: tableId,
        importId: tableId,
        nameHint: tableName,
        body: [
          ...attributes({ vpc_id: vpcReference(table.VpcId) }),
          ...routes,
          ...attributes({ tags: tagsOf(table.Tags) }),
        ],
      });
      for (const association of table.Associations ?? []) {
        if (!association.SubnetId || !association.RouteTableAssociationId) continue;
        resources.push({
          service,
          type: "aws_route_table_association",
          awsId: association.RouteTableAssociationId,
          importId: `${association.SubnetId}/${tableId}`,
          nameHint: subnetNames.get(association.SubnetId) ?? association.SubnetId,
          partOf: { type: "aws_route_table", awsId: tableId },
          body: attributes({
            subnet_id: new Reference("aws_subnet", association.SubnetId),
            route_table_id: new Reference("aws_route_table", tableId),
          }),
        });
      }
    }

    for (const group of raw.securityGroups) {
      if (!group.GroupId || !exported(group.VpcId)) continue;
      // Every VPC has a "default" group; Terraform manages it as aws_default_security_group, not here.
      if (group.GroupName === "default") continue;
      resources.push({
        service,
        type: "aws_security_group",
        awsId: group.GroupId,
        importId: group.GroupId,
        nameHint: nameTagOf(group.Tags) ?? group.GroupName ?? group.GroupId,
        body: [
          ...attributes({
            name: group.GroupName,
            description: group.Description,
            vpc_id: vpcReference(group.VpcId),
          }),
          ...ruleBlocks("ingress", group.IpPermissions, group.GroupId),
          ...ruleBlocks("egress", group.IpPermissionsEgress, group.GroupId),
          ...attributes({ tags: tagsOf(group.Tags) }),
        ],
      });
    }
    return resources;
  },
};

export function securityGroupReferences(groupIds: (string | undefined)[] | undefined): Reference[] {
  return definedStrings(groupIds).map((groupId) => new Reference("aws_security_group", groupId));
}

export function subnetReferences(subnetIds: (string | undefined)[] | undefined): Reference[] {
  return definedStrings(subnetIds).map((subnetId) => new Reference("aws_subnet", subnetId));
}
