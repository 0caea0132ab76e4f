import type { ProvisionContext } from "./provisioner";
import { boundedWait, isAwsError, unlessMissing, type State, type Step } from "./common";
import { NAT_POLL_MS, type Ec2, type Inventory } from "./network-inventory";

/** AWS releases a deleted NAT gateway's network interface within minutes; a dependency lasting longer is real. */
const DEPENDENCY_LIMIT_MS = 15 * 60_000;
const DEPENDENCY_POLL_MS = 15_000;

/**
 * Deletes `doomed` (a part of the inventory) in reverse order of creation: NAT gateways (and their wait), Elastic
 * IPs, route tables, the internet gateway, subnets, security groups, the VPC. Each step deletes what it can and
 * ends the call; what is already gone counts as deleted.
 */
export function teardownSteps(ec2: Ec2, context: ProvisionContext, doomed: Inventory, label: string): Step[] {
  const { sdk, client } = ec2;
  const deleted = (what: string, ids: (string | undefined)[]) => {
    context.log("info", `Deleted ${what} ${ids.join(", ")}`);
    return { waitMs: 0, state: { dependencyWaitSince: "" } };
  };
  /** A dependency AWS has not released yet (a NAT gateway's network interface): wait for it, within limits. */
  const waitingForDependency = async (state: State, what: string, remove: () => Promise<unknown>) => {
    try {
      await remove();
      return undefined;
    } catch (error) {
      if (!isAwsError(error, "DependencyViolation", "InvalidIPAddress.InUse")) throw error;
      return boundedWait(state, "dependencyWaitSince", {
        now: context.now,
        limitMs: DEPENDENCY_LIMIT_MS,
        waitMs: DEPENDENCY_POLL_MS,
        progress: `Waiting for AWS to release what still uses the ${what}`,
        reason: error instanceof Error ? error.message : String(error),
        code: error instanceof Error ? error.name : null,
      });
    }
  };
  return [
    {
      progress: `${label}: deleting NAT gateways`,
      async run() {
        const deletable = doomed.natGateways.filter((gateway) => gateway.State !== "deleting");
        if (deletable.length === 0) return;
        for (const gateway of deletable) {
          await unlessMissing(
            () => client.send(new sdk.DeleteNatGatewayCommand({ NatGatewayId: gateway.NatGatewayId })),
            "NatGatewayNotFound",
            "InvalidNatGatewayID.NotFound",
          );
        }
        return deleted(
          "NAT gateway",
          deletable.map((gateway) => gateway.NatGatewayId),
        );
      },
    },
    {
      progress: `${label}: waiting for NAT gateways to be deleted`,
      async run() {
        if (!doomed.natGateways.some((gateway) => gateway.State === "deleting")) return;
        return { waitMs: NAT_POLL_MS };
      },
    },
    {
      progress: `${label}: releasing Elastic IPs`,
      async run(state) {
        if (doomed.addresses.length === 0) return;
        for (const address of doomed.addresses) {
          const waiting = await waitingForDependency(state, `Elastic IP ${address.PublicIp}`, () =>
            unlessMissing(
              () => client.send(new sdk.ReleaseAddressCommand({ AllocationId: address.AllocationId })),
              "InvalidAllocationID.NotFound",
            ),
          );
          if (waiting) return waiting;
        }
        return deleted(
          "Elastic IP",
          doomed.addresses.map((address) => address.AllocationId),
        );
      },
    },
    {
      progress: `${label}: deleting route tables`,
      async run() {
        if (doomed.routeTables.length === 0) return;
        for (const table of doomed.routeTables) {
          for (const association of table.Associations ?? []) {
            if (association.Main) continue;
            await unlessMissing(
              () =>
                client.send(
                  new sdk.DisassociateRouteTableCommand({
                    AssociationId: association.RouteTableAssociationId,
                  }),
                ),
              "InvalidAssociationID.NotFound",
            );
          }
          await unlessMissing(
            () => client.send(new sdk.DeleteRouteTableCommand({ RouteTableId: table.RouteTableId })),
            "InvalidRouteTableID.NotFound",
          );
        }
        return deleted(
          "route table",
          doomed.routeTables.map((table) => table.RouteTableId),
        );
      },
    },
    {
      progress: `${label}: deleting the internet gateway`,
      async run(state) {
        if (doomed.internetGateways.length === 0) return;
        for (const gateway of doomed.internetGateways) {
          for (const attachment of gateway.Attachments ?? []) {
            const waiting = await waitingForDependency(state, "internet gateway", () =>
              unlessMissing(
                () =>
                  client.send(
                    new sdk.DetachInternetGatewayCommand({
                      InternetGatewayId: gateway.InternetGatewayId,
                      VpcId: attachment.VpcId,
                    }),
                  ),
                "Gateway.NotAttached",
                "InvalidInternetGatewayID.NotFound",
              ),
            );
            if (waiting) return waiting;
          }
          await unlessMissing(
            () =>
              client.send(
                new sdk.DeleteInternetGatewayCommand({ InternetGatewayId: gateway.InternetGatewayId }),
              ),
            "InvalidInternetGatewayID.NotFound",
          );
        }
        return deleted(
          "internet gateway",
          doomed.internetGateways.map((gateway) => gateway.InternetGatewayId),
        );
      },
    },
    {
      progress: `${label}: deleting subnets`,
      async run(state) {
        if (doomed.subnets.length === 0) return;
        for (const subnet of doomed.subnets) {
          const waiting = await waitingForDependency(state, `subnet ${subnet.SubnetId}`, () =>
            unlessMissing(
              () => client.send(new sdk.DeleteSubnetCommand({ SubnetId: subnet.SubnetId })),
              "InvalidSubnetID.NotFound",
            ),
          );
          if (waiting) return waiting;
        }
        return deleted(
          "subnet",
          doomed.subnets.map((subnet) => subnet.SubnetId),
        );
      },
    },
    {
      progress: `${label}: deleting the security group`,
      async run(state) {
        if (doomed.securityGroups.length === 0) return;
        for (const group of doomed.securityGroups) {
          const waiting = await waitingForDependency(state, `security group ${group.GroupId}`, () =>
            unlessMissing(
              () => client.send(new sdk.DeleteSecurityGroupCommand({ GroupId: group.GroupId })),
              "InvalidGroup.NotFound",
            ),
          );
          if (waiting) return waiting;
        }
        return deleted(
          "security group",
          doomed.securityGroups.map((group) => group.GroupId),
        );
      },
    },
    {
      progress: `${label}: deleting the VPC`,
      async run(state) {
        if (doomed.vpcs.length === 0) return;
        for (const vpc of doomed.vpcs) {
          const waiting = await waitingForDependency(state, `VPC ${vpc.VpcId}`, () =>
            unlessMissing(
              () => client.send(new sdk.DeleteVpcCommand({ VpcId: vpc.VpcId })),
              "InvalidVpcID.NotFound",
            ),
          );
          if (waiting) return waiting;
        }
        return deleted(
          "VPC",
          doomed.vpcs.map((vpc) => vpc.VpcId),
        );
      },
    },
  ];
}
