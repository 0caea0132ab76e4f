import type {
  Action,
  Listener,
  LoadBalancer,
  Rule,
  RuleCondition,
  TargetGroup,
} from "@aws-sdk/client-elastic-load-balancing-v2";
import { attributes, block, Reference, tagsOf, type HclBlock, type ScannedResource } from "../model";
import { collect, definedStrings, mapWithConcurrency, type ServiceScanner } from "./service-scanner";
import { securityGroupReferences, subnetReferences } from "./vpc";

type Tagged = { Tags?: { Key?: string; Value?: string }[] };

/**
 * Load balancers with their listeners and listener rules, and target groups. Each carries its tags (Describe* answer
 * none): an environment's export recognizes the listeners and rules the platform tagged by them.
 */
export type Elbv2Inventory = {
  loadBalancers: (LoadBalancer & Tagged)[];
  targetGroups?: (TargetGroup & Tagged)[];
  listeners?: (Listener & Tagged)[];
  rules?: (Rule & Tagged & { ListenerArn: string })[];
};

const service = "elbv2";
/** DescribeTags takes at most this many ARNs at once. */
const DESCRIBE_TAGS_BATCH = 20;

const targetGroupReference = (arn: string) => new Reference("aws_lb_target_group", arn, "arn", arn);

/** A listener's or rule's action: forwarding to a target group (by reference) or a fixed response. */
function actionBlock(type: "default_action" | "action", action: Action): HclBlock {
  const fixed = action.FixedResponseConfig;
  const redirect = action.RedirectConfig;
  return block(type, [
    ...attributes({
      type: action.Type,
      target_group_arn: action.TargetGroupArn ? targetGroupReference(action.TargetGroupArn) : undefined,
    }),
    ...(fixed
      ? [
          block(
            "fixed_response",
            attributes({
              content_type: fixed.ContentType,
              message_body: fixed.MessageBody,
              status_code: fixed.StatusCode,
            }),
          ),
        ]
      : []),
    ...(redirect
      ? [
          block(
            "redirect",
            attributes({
              protocol: redirect.Protocol,
              port: redirect.Port,
              host: redirect.Host,
              path: redirect.Path,
              query: redirect.Query,
              status_code: redirect.StatusCode,
            }),
          ),
        ]
      : []),
  ]);
}

/** A rule's condition as Terraform writes it: one block per field, with its values. */
function conditionBlock(condition: RuleCondition): HclBlock[] {
  const values = (config: { Values?: string[] } | undefined) => config?.Values ?? condition.Values ?? [];
  switch (condition.Field) {
    case "path-pattern":
      return [
        block("condition", [
          block("path_pattern", attributes({ values: values(condition.PathPatternConfig) })),
        ]),
      ];
    case "host-header":
      return [
        block("condition", [
          block("host_header", attributes({ values: values(condition.HostHeaderConfig) })),
        ]),
      ];
    default:
      return [];
  }
}

function loadBalancerResource(balancer: LoadBalancer & Tagged): ScannedResource[] {
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
        tags: tagsOf(balancer.Tags),
      }),
      tags: tagsOf(balancer.Tags),
    },
  ];
}

function targetGroupResource(group: TargetGroup & Tagged): ScannedResource[] {
  const arn = group.TargetGroupArn;
  const name = group.TargetGroupName;
  if (!arn || !name) return [];
  return [
    {
      service,
      type: "aws_lb_target_group",
      awsId: arn,
      importId: arn,
      nameHint: name,
      body: [
        ...attributes({
          name,
          target_type: group.TargetType,
          protocol: group.Protocol,
          port: group.Port,
          vpc_id: group.VpcId ? new Reference("aws_vpc", group.VpcId) : undefined,
        }),
        block(
          "health_check",
          attributes({
            path: group.HealthCheckPath,
            port: group.HealthCheckPort,
            protocol: group.HealthCheckProtocol,
            interval: group.HealthCheckIntervalSeconds,
            timeout: group.HealthCheckTimeoutSeconds,
            healthy_threshold: group.HealthyThresholdCount,
            unhealthy_threshold: group.UnhealthyThresholdCount,
            matcher: group.Matcher?.HttpCode,
          }),
        ),
        ...attributes({ tags: tagsOf(group.Tags) }),
      ],
      tags: tagsOf(group.Tags),
    },
  ];
}

function listenerResource(listener: Listener & Tagged): ScannedResource[] {
  const arn = listener.ListenerArn;
  const balancer = listener.LoadBalancerArn;
  if (!arn || !balancer) return [];
  return [
    {
      service,
      type: "aws_lb_listener",
      awsId: arn,
      importId: arn,
      nameHint: `${balancer.split("/").at(-2) ?? "listener"} ${listener.Port ?? ""}`,
      body: [
        ...attributes({
          load_balancer_arn: new Reference("aws_lb", balancer, "arn", balancer),
          port: listener.Port,
          protocol: listener.Protocol,
          ssl_policy: listener.SslPolicy,
          certificate_arn: listener.Certificates?.[0]?.CertificateArn,
        }),
        ...(listener.DefaultActions ?? []).map((action) => actionBlock("default_action", action)),
        ...attributes({ tags: tagsOf(listener.Tags) }),
      ],
      tags: tagsOf(listener.Tags),
    },
  ];
}

/** A listener's own rule; its default rule is the listener's default_action. */
function ruleResource(rule: Rule & Tagged & { ListenerArn: string }): ScannedResource[] {
  const arn = rule.RuleArn;
  const priority = Number(rule.Priority);
  if (!arn || rule.IsDefault || !Number.isFinite(priority)) return [];
  const forwardsTo = rule.Actions?.find((action) => action.TargetGroupArn)?.TargetGroupArn;
  return [
    {
      service,
      type: "aws_lb_listener_rule",
      awsId: arn,
      importId: arn,
      nameHint: `${forwardsTo?.split("/").at(-2) ?? "rule"} ${priority}`,
      body: [
        ...attributes({
          listener_arn: new Reference("aws_lb_listener", rule.ListenerArn, "arn", rule.ListenerArn),
          priority,
        }),
        ...(rule.Actions ?? []).map((action) => actionBlock("action", action)),
        ...(rule.Conditions ?? []).flatMap(conditionBlock),
        ...attributes({ tags: tagsOf(rule.Tags) }),
      ],
      tags: tagsOf(rule.Tags),
    },
  ];
}

export const elbv2Scanner: ServiceScanner<Elbv2Inventory> = {
  service,
  permissions: [
    "elasticloadbalancing:DescribeLoadBalancers",
    "elasticloadbalancing:DescribeTargetGroups",
    "elasticloadbalancing:DescribeListeners",
    "elasticloadbalancing:DescribeRules",
    "elasticloadbalancing:DescribeTags",
  ],

  async read(clients) {
    const {
      DescribeRulesCommand,
      DescribeTagsCommand,
      paginateDescribeListeners,
      paginateDescribeLoadBalancers,
      paginateDescribeTargetGroups,
    } = await import("@aws-sdk/client-elastic-load-balancing-v2");
    const client = await clients.elbv2();
    const loadBalancers = await collect(
      paginateDescribeLoadBalancers({ client }, {}),
      (page) => page.LoadBalancers,
    );
    const targetGroups = await collect(
      paginateDescribeTargetGroups({ client }, {}),
      (page) => page.TargetGroups,
    );
    const listeners = (
      await mapWithConcurrency(definedStrings(loadBalancers.map((each) => each.LoadBalancerArn)), 4, (arn) =>
        collect(paginateDescribeListeners({ client }, { LoadBalancerArn: arn }), (page) => page.Listeners),
      )
    ).flat();
    const rules = (
      await mapWithConcurrency(
        definedStrings(listeners.map((each) => each.ListenerArn)),
        4,
        async (ListenerArn) =>
          ((await client.send(new DescribeRulesCommand({ ListenerArn }))).Rules ?? []).map((rule) => ({
            ...rule,
            ListenerArn,
          })),
      )
    ).flat();
    const arns = definedStrings([
      ...loadBalancers.map((each) => each.LoadBalancerArn),
      ...targetGroups.map((each) => each.TargetGroupArn),
      ...listeners.map((each) => each.ListenerArn),
      ...rules.map((each) => each.RuleArn),
    ]);
    const batches: string[][] = [];
    for (let start = 0; start < arns.length; start += DESCRIBE_TAGS_BATCH) {
      batches.push(arns.slice(start, start + DESCRIBE_TAGS_BATCH));
    }
    const described = await mapWithConcurrency(
      batches,
      4,
      async (ResourceArns) =>
        (await client.send(new DescribeTagsCommand({ ResourceArns }))).TagDescriptions ?? [],
    );
    const tags = new Map(described.flat().map((each) => [each.ResourceArn, each.Tags]));
    return {
      loadBalancers: loadBalancers.map((each) => ({ ...each, Tags: tags.get(each.LoadBalancerArn) })),
      targetGroups: targetGroups.map((each) => ({ ...each, Tags: tags.get(each.TargetGroupArn) })),
      listeners: listeners.map((each) => ({ ...each, Tags: tags.get(each.ListenerArn) })),
      rules: rules.map((each) => ({ ...each, Tags: tags.get(each.RuleArn) })),
    };
  },

  toResources(raw) {
    return [
      ...raw.loadBalancers.flatMap(loadBalancerResource),
      ...(raw.targetGroups ?? []).flatMap(targetGroupResource),
      ...(raw.listeners ?? []).flatMap(listenerResource),
      ...(raw.rules ?? []).flatMap(ruleResource),
    ];
  },
};
