import type { Cluster, Service, TaskDefinition } from "@aws-sdk/client-ecs";
import { attributes, block, FunctionCall, Reference, type ScannedResource } from "../model";
import { jsonToHcl } from "./iam";
import { collect, definedStrings, mapWithConcurrency, type ServiceScanner } from "./service-scanner";
import { securityGroupReferences, subnetReferences } from "./vpc";

export type EcsInventory = { clusters: Cluster[]; services: Service[]; taskDefinitions: TaskDefinition[] };

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
  return [
    {
      service,
      type: "aws_ecs_task_definition",
      awsId: arn,
      importId: arn,
      nameHint: definition.family,
      body: attributes({
        family: definition.family,
        container_definitions: new FunctionCall("jsonencode", [jsonToHcl(containers)]),
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
    return { clusters, services, taskDefinitions };
  },

  toResources(raw) {
    return [
      ...raw.clusters.flatMap(clusterResource),
      ...raw.services.flatMap(serviceResource),
      ...raw.taskDefinitions.flatMap(taskDefinitionResource),
    ];
  },
};
