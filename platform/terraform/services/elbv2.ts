import type { LoadBalancer } from "@aws-sdk/client-elastic-load-balancing-v2";
import { attributes, type ScannedResource } from "../model";
import { collect, type ServiceScanner } from "./service-scanner";
import { securityGroupReferences, subnetReferences } from "./vpc";

export type Elbv2Inventory = { loadBalancers: LoadBalancer[] };

const service = "elbv2";

export const elbv2Scanner: ServiceScanner<Elbv2Inventory> = {
  service,
  permissions: ["elasticloadbalancing:DescribeLoadBalancers"],

  async read(clients) {
    const { paginateDescribeLoadBalancers } = await import("@aws-sdk/client-elastic-load-balancing-v2");
    const client = await clients.elbv2();
    const loadBalancers = await collect(
      paginateDescribeLoadBalancers({ client }, {}),
      (page) => page.LoadBalancers,
    );
    return { loadBalancers };
  },

  toResources(raw) {
    return raw.loadBalancers.flatMap((balancer): ScannedResource[] => {
      const arn = balancer.LoadBalancerArn;
      const name = balancer.LoadBalancerName;
      if (!arn || !name) return [];
      return [
        {
          service,
          type: "aws_lb",
          awsId: arn,
          importId: arn,
          nameHint: name,
          body: attributes({
            name,
            internal: balancer.Scheme === "internal",
            load_balancer_type: balancer.Type,
            subnets: subnetReferences(balancer.AvailabilityZones?.map((zone) => zone.SubnetId)),
            security_groups: securityGroupReferences(balancer.SecurityGroups),
            ip_address_type: balancer.IpAddressType,
          }),
        },
      ];
    });
  },
};
