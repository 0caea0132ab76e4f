import type { HostedZone, VPC } from "@aws-sdk/client-route-53";
import { attributes, block, Reference, type ScannedResource } from "../model";
import { collect, mapWithConcurrency, type ServiceScanner } from "./service-scanner";

export type Route53Zone = { zone: HostedZone; vpcs: VPC[] };
export type Route53Inventory = { zones: Route53Zone[] };

const service = "route53";

export function hostedZoneId(id: string): string {
  return id.replace(/^\/hostedzone\//, "");
}

export const route53Scanner: ServiceScanner<Route53Inventory> = {
  service,
  permissions: ["route53:ListHostedZones", "route53:GetHostedZone"],

  /** Zones are global; private zones also name the VPCs they answer in (GetHostedZone). */
  async read(clients) {
    const { GetHostedZoneCommand, paginateListHostedZones } = await import("@aws-sdk/client-route-53");
    const client = await clients.route53();
    const listed = await collect(paginateListHostedZones({ client }, {}), (page) => page.HostedZones);
    const zones = await mapWithConcurrency(listed, 4, async (zone) => {
      if (!zone.Config?.PrivateZone || !zone.Id) return { zone, vpcs: [] };
      const answer = await client.send(new GetHostedZoneCommand({ Id: hostedZoneId(zone.Id) }));
      return { zone, vpcs: answer.VPCs ?? [] };
    });
    return { zones };
  },

  toResources(raw) {
    return raw.zones.flatMap(({ zone, vpcs }): ScannedResource[] => {
      if (!zone.Id || !zone.Name) return [];
      const id = hostedZoneId(zone.Id);
      const name = zone.Name.replace(/\.$/, "");
      return [
        {
          service,
          type: "aws_route53_zone",
          awsId: id,
          importId: id,
          nameHint: name,
          body: [
            // Terraform's default comment is "Managed by Terraform": the zone's own, even empty, is kept.
            ...attributes({ name, comment: zone.Config?.Comment ?? "" }),
            ...vpcs.map((vpc) =>
              block(
                "vpc",
                attributes({
                  vpc_id: vpc.VPCId ? new Reference("aws_vpc", vpc.VPCId) : undefined,
                  vpc_region: vpc.VPCRegion,
                }),
              ),
            ),
          ],
        },
      ];
    });
  },
};
