import type { ScalableTarget, ScalingPolicy } from "@aws-sdk/client-application-auto-scaling";
import type { Cluster, Service, TaskDefinition } from "@aws-sdk/client-ecs";
import { attributes, block, FunctionCall, isPlainMap, Reference, type ScannedResource } from "../model";
import { jsonToHcl } from "./iam";
import { collect, definedStrings, mapWithConcurrency, type ServiceScanner } from "./service-scanner";
import { securityGroupReferences, subnetReferences } from "./vpc";

export type EcsInventory = {
  clusters: Cluster[];
  services: Service[];
  taskDefinitions: TaskDefinition[];
  /** Application Auto Scaling's targets and policies of ECS services (their task counts). */
  scalableTargets?: ScalableTarget[];
  scalingPolicies?: ScalingPolicy[];
};

const service = "ecs";

/** DescribeClusters and DescribeServices take at most this many names at once. */
const DESCRIBE_BATCH = 10;

function batches<Item>(items: Item[]): Item[][] {
  const result: Item[][] = [];
  for (let start = 0; start < items.length; start += DESCRIBE_BATCH) {
    result.push(items.slice(start, start + DESCRIBE_BATCH));
  }
  return result;
}

function tagMap(tags: { key?: string; value?: string }[] | undefined): Record<string, string> {
  const result: Record<string, string> = {};
  for (const { key, value } of tags ?? []) if (key && !key.startsWith("aws:")) result[key] = value ?? "";
  return result;
}

function clusterResource(cluster: Cluster): ScannedResource[] {
  const { clusterArn, clusterName } = cluster;
  if (!clusterArn || !clusterName) return [];
  return [
    {
      service,
      type: "aws_ecs_cluster",
      awsId: clusterArn,
      importId: clusterName,
      nameHint: clusterName,
      body: attributes({ name: clusterName, tags: tagMap(cluster.tags) }),
    },
  ];
}

function serviceResource(ecsService: Service): ScannedResource[] {
  const { serviceArn, serviceName, clusterArn, taskDefinition } = ecsService;
  if (!serviceArn || !serviceName || !clusterArn) return [];
  const clusterName = clusterArn.split("/").pop() ?? clusterArn;
  const network = ecsService.networkConfiguration?.awsvpcConfiguration;
  return [
    {
      service,
      type: "aws_ecs_service",
      awsId: serviceArn,
      importId: `${clusterName}/${serviceName}`,
      nameHint: serviceName,
      body: [
        ...attributes({
          name: serviceName,
          // aws_ecs_cluster's id is its ARN, as a service's cluster argument takes it.
          cluster: new Reference("aws_ecs_cluster", clusterArn, "id", clusterArn),
          task_definition: taskDefinition
            ? new Reference("aws_ecs_task_definition", taskDefinition, "arn", taskDefinition)
            : undefined,
          desired_count: ecsService.desiredCount,
          launch_type: ecsService.launchType,
          platform_version: ecsService.platformVersion,
        }),
        ...(network
          ? [
              block(
                "network_configuration",
                attributes({
                  subnets: subnetReferences(network.subnets),
                  security_groups: securityGroupReferences(network.securityGroups),
                  assign_public_ip: network.assignPublicIp ? network.assignPublicIp === "ENABLED" : undefined,
                }),
              ),
            ]
          : []),
        ...(ecsService.loadBalancers ?? []).map((balancer) =>
          block(
            "load_balancer",
            attributes({
              target_group_arn: balancer.targetGroupArn
                ? new Reference(
                    "aws_lb_target_group",
                    balancer.targetGroupArn,
                    "arn",
                    balancer.targetGroupArn,
                  )
                : undefined,
              container_name: balancer.containerName,
              container_port: balancer.containerPort,
            }),
          ),
        ),
        ...attributes({ tags: tagMap(ecsService.tags) }),
      ],
    },
  ];
}

function taskDefinitionResource(definition: TaskDefinition & { tags?: { key?: string; value?: string }[] }) {
  const arn = definition.taskDefinitionArn;
  if (!arn || !definition.family) return [];
  // Through JSON so that the SDK's undefined members are left out of jsonencode(...).
  const containers = JSON.parse(JSON.stringify(definition.containerDefinitions ?? [])) as unknown;
  const hcl = jsonToHcl(containers);
  // The awslogs driver's group: a reference to the log group, which the export puts beside it (logs.ts).
  for (const container of Array.isArray(hcl) ? hcl : []) {
    const options =
      isPlainMap(container) && isPlainMap(container.logConfiguration)
        ? container.logConfiguration.options
        : undefined;
    const group = isPlainMap(options) ? options["awslogs-group"] : undefined;
    if (isPlainMap(options) && typeof group === "string") {
      options["awslogs-group"] = new Reference("aws_cloudwatch_log_group", group, "name");
    }
  }
  return [
    {
      service,
      type: "aws_ecs_task_definition",
      awsId: arn,
      importId: arn,
      nameHint: definition.family,
      body: attributes({
        family: definition.family,
        container_definitions: new FunctionCall("jsonencode", [hcl]),
        cpu: definition.cpu,
        memory: definition.memory,
        network_mode: definition.networkMode,
        requires_compatibilities: definition.requiresCompatibilities ?? [],
        execution_role_arn: definition.executionRoleArn
          ? new Reference("aws_iam_role", definition.executionRoleArn, "arn")
          : undefined,
        task_role_arn: definition.taskRoleArn
          ? new Reference("aws_iam_role", definition.taskRoleArn, "arn")
          : undefined,
        tags: tagMap(definition.tags),
      }),
    } satisfies ScannedResource,
  ];
}

/** Application Auto Scaling's id of an ECS service: `service/<cluster name>/<service name>`. */
const scalingIdOf = (ecsService: Service) =>
  `service/${ecsService.clusterArn?.split("/").pop() ?? ""}/${ecsService.serviceName ?? ""}`;

/**
 * A service's scalable target (its task count's bounds) and policies, as parts of the service: they exist for it
 * alone, and Application Auto Scaling may not be listed by the Tagging API, so they go wherever the service goes.
 */
function autoScalingResources(raw: EcsInventory): ScannedResource[] {
  const services = new Map(raw.services.map((each) => [scalingIdOf(each), each]));
  const resources: ScannedResource[] = [];
  const targets = new Map<string, { awsId: string; importId: string }>();
  for (const target of raw.scalableTargets ?? []) {
    const owner = services.get(target.ResourceId ?? "");
    if (!owner?.serviceArn || !target.ResourceId || !target.ScalableDimension) continue;
    const importId = `${target.ServiceNamespace}/${target.ResourceId}/${target.ScalableDimension}`;
    const awsId = target.ScalableTargetARN ?? importId;
    targets.set(`${target.ResourceId}|${target.ScalableDimension}`, { awsId, importId });
    resources.push({
      service,
      type: "aws_appautoscaling_target",
      awsId,
      importId,
      nameHint: owner.serviceName ?? target.ResourceId,
      body: attributes({
        service_namespace: target.ServiceNamespace,
        resource_id: target.ResourceId,
        scalable_dimension: target.ScalableDimension,
        min_capacity: target.MinCapacity,
        max_capacity: target.MaxCapacity,
      }),
      partOf: { type: "aws_ecs_service", awsId: owner.serviceArn },
    });
  }
  for (const policy of raw.scalingPolicies ?? []) {
    const owner = services.get(policy.ResourceId ?? "");
    const target = targets.get(`${policy.ResourceId}|${policy.ScalableDimension}`);
    if (!owner?.serviceArn || !target || !policy.PolicyName || !policy.PolicyARN) continue;
    const tracking = policy.TargetTrackingScalingPolicyConfiguration;
    const on = (attribute: string, literal: string | undefined) =>
      new Reference("aws_appautoscaling_target", target.awsId, attribute, literal ?? "");
    resources.push({
      service,
      type: "aws_appautoscaling_policy",
      awsId: policy.PolicyARN,
      importId: `${target.importId}/${policy.PolicyName}`,
      nameHint: policy.PolicyName,
      body: [
        ...attributes({
          name: policy.PolicyName,
          policy_type: policy.PolicyType,
          service_namespace: on("service_namespace", policy.ServiceNamespace),
          resource_id: on("resource_id", policy.ResourceId),
          scalable_dimension: on("scalable_dimension", policy.ScalableDimension),
        }),
        ...(tracking
          ? [
              block("target_tracking_scaling_policy_configuration", [
                ...attributes({
                  target_value: tracking.TargetValue,
                  scale_in_cooldown: tracking.ScaleInCooldown,
                  scale_out_cooldown: tracking.ScaleOutCooldown,
                  disable_scale_in: tracking.DisableScaleIn || undefined,
                }),
                ...(tracking.PredefinedMetricSpecification?.PredefinedMetricType
                  ? [
                      block(
                        "predefined_metric_specification",
                        attributes({
                          predefined_metric_type: tracking.PredefinedMetricSpecification.PredefinedMetricType,
                          resource_label: tracking.PredefinedMetricSpecification.ResourceLabel,
                        }),
                      ),
                    ]
                  : []),
              ]),
            ]
          : []),
      ],
      partOf: { type: "aws_ecs_service", awsId: owner.serviceArn },
    });
  }
  return resources;
}

/**
 * Clusters, their services, and the task definitions those services run (one revision each: the other revisions
 * of a family are history, not configuration).
 */
export const ecsScanner: ServiceScanner<EcsInventory> = {
  service,
  permissions: [
    "ecs:ListClusters",
    "ecs:DescribeClusters",
    "ecs:ListServices",
    "ecs:DescribeServices",
    "ecs:DescribeTaskDefinition",
    "application-autoscaling:DescribeScalableTargets",
    "application-autoscaling:DescribeScalingPolicies",
  ],

  async read(clients) {
    const {
      DescribeClustersCommand,
      DescribeServicesCommand,
      DescribeTaskDefinitionCommand,
      paginateListClusters,
      paginateListServices,
    } = await import("@aws-sdk/client-ecs");
    const client = await clients.ecs();
    const clusterArns = await collect(paginateListClusters({ client }, {}), (page) => page.clusterArns);
    const clusters = (
      await mapWithConcurrency(batches(clusterArns), 4, async (names) => {
        const answer = await client.send(new DescribeClustersCommand({ clusters: names, include: ["TAGS"] }));
        return answer.clusters ?? [];
      })
    ).flat();
    const services = (
      await mapWithConcurrency(clusterArns, 4, async (cluster) => {
        const serviceArns = await collect(
          paginateListServices({ client }, { cluster }),
          (page) => page.serviceArns,
        );
        const described = await mapWithConcurrency(batches(serviceArns), 4, async (names) => {
          const answer = await client.send(
            new DescribeServicesCommand({ cluster, services: names, include: ["TAGS"] }),
          );
          return answer.services ?? [];
        });
        return described.flat();
      })
    ).flat();
    const taskDefinitionArns = [...new Set(definedStrings(services.map((each) => each.taskDefinition)))];
    const taskDefinitions = await mapWithConcurrency(taskDefinitionArns, 4, async (taskDefinition) => {
      const answer = await client.send(
        new DescribeTaskDefinitionCommand({ taskDefinition, include: ["TAGS"] }),
      );
      return { ...answer.taskDefinition, tags: answer.tags };
    });
    const scaling = await import("@aws-sdk/client-application-auto-scaling");
    const autoScaling = await clients.applicationAutoScaling();
    const [scalableTargets, scalingPolicies] = await Promise.all([
      collect(
        scaling.paginateDescribeScalableTargets({ client: autoScaling }, { ServiceNamespace: "ecs" }),
        (page) => page.ScalableTargets,
      ),
      collect(
        scaling.paginateDescribeScalingPolicies({ client: autoScaling }, { ServiceNamespace: "ecs" }),
        (page) => page.ScalingPolicies,
      ),
    ]);
    return { clusters, services, taskDefinitions, scalableTargets, scalingPolicies };
  },

  toResources(raw) {
    return [
      ...raw.clusters.flatMap(clusterResource),
      ...raw.services.flatMap(serviceResource),
      ...raw.taskDefinitions.flatMap(taskDefinitionResource),
      ...autoScalingResources(raw),
    ];
  },
};
