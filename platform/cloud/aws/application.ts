import type { ContainerDefinition, Service, TaskDefinition } from "@aws-sdk/client-ecs";
import type {
  Action,
  LoadBalancer,
  Rule,
  RuleCondition,
  TargetGroup,
} from "@aws-sdk/client-elastic-load-balancing-v2";
import { isAwsError } from "./aws-errors";
import { applicationImageOf } from "../images";
import type { DriverResource, ResolvedVariable } from "../driver";
import { referenceWords, resolvedVariablesOf } from "../variables";
import { deleteSecret, ensureSecretValue } from "./secrets";
import { deleteLogGroup, ensureLogGroup, logGroupsOutput } from "./log-groups";
import {
  TAG_ENVIRONMENT,
  TAG_ORGANIZATION,
  TAG_SERVICE,
  type ProvisionContext,
  type Provisioner,
} from "./provisioner";
import { deleteRole, ensureRole, managedPolicy } from "./roles";
import { deleteSecurityGroup, ensureSecurityGroup } from "./security-groups";
import { TAG_PART } from "./naming";
import {
  clientToken,
  networkOf,
  pending,
  ProvisionError,
  physicalName,
  planChanges,
  tagList,
  unlessMissing,
  type Network,
} from "./common";

/**
 * An application runs on ECS Fargate: a task definition (image, CPU, memory, port, variables) and an ECS service in
 * the environment's private subnets, behind a target group (ip targets, the settings' health check) that a listener
 * rule of the environment's load balancer forwards to, by path (/name) or by host (the custom domain).
 *
 * The ECS cluster and the load balancers belong to the environment: the first application creates them, tagged with
 * the environment and TAG_SHARED, later ones find them by those tags, and the last one to go deletes them. A public
 * application sits behind the internet-facing load balancer (public subnets), a private one behind the internal one
 * (private subnets). Every change lands in place: a new task definition revision rolls out with the ECS deployment
 * circuit breaker (a failed rollout rolls back and fails the deployment with ECS's reason).
 *
 * The container writes its output to CloudWatch Logs with the awslogs driver, in the application's own log group
 * (/ecs/<family>, tagged, deleted with the application), streams `app/app/<task id>`; the task's execution role
 * (AmazonECSTaskExecutionRolePolicy) lets Fargate write there and pull the image.
 */

/** Marks what an environment's applications share, by role: the ECS cluster and each load balancer. */
export const TAG_SHARED = "cloud-console:shared";

type Scheme = "internet-facing" | "internal";
const schemes: Scheme[] = ["internet-facing", "internal"];
const schemeSuffix = (scheme: Scheme) => (scheme === "internal" ? "int" : "pub");

const CONTAINER_NAME = "app";
const DEPLOY_WAIT_MS = 15_000;
/** How often a deployment asks again for a referenced service's attribute it waits for. */
const REFERENCE_WAIT_MS = 5000;
/** How often a deployment looks again at a certificate it waits for (the user creates its DNS records). */
const CERTIFICATE_WAIT_MS = 30_000;
const LISTENER_PORT = 80;
const HTTPS_PORT = 443;
/** AWS's recommended policy for HTTPS listeners: TLS 1.3 and 1.2. */
const SSL_POLICY = "ELBSecurityPolicy-TLS13-1-2-2021-06";
/** On an HTTPS rule: the ACM certificate its domain is served with, so the listener keeps exactly the ones in use. */
const TAG_CERTIFICATE = "cloud-console:certificate";
const vCpuUnits: Record<string, number> = { "0.25": 256, "0.5": 512, "1": 1024, "2": 2048, "4": 4096 };

function namesOf(resource: DriverResource) {
  const name = physicalName(resource, 200);
  return {
    family: name,
    service: name,
    logGroup: `/ecs/${name}`,
    // IAM role names: at most 64 characters.
    executionRole: `${physicalName(resource, 59)}-exec`,
    // Target group names: at most 32 characters.
    targetGroup: (scheme: Scheme) => `${physicalName(resource, 28)}-${schemeSuffix(scheme)}`,
    tasksGroup: `${physicalName(resource, 200)}-tasks`,
    variablesSecret: `cloud-console/${physicalName(resource, 200)}/variables`,
  };
}

/** How the tasks' security group is found again: the application's id and its part. */
const tasksGroupKey = (context: ProvisionContext) => ({
  [TAG_SERVICE]: context.tags[TAG_SERVICE] ?? "",
  [TAG_PART]: "tasks",
});

/** The environment this application belongs to, and the names and tags of what its applications share. */
function environmentOf(context: ProvisionContext) {
  const id = context.tags[TAG_ENVIRONMENT];
  if (!id) throw new Error(`The provision context has no ${TAG_ENVIRONMENT} tag`);
  const environment = { id, name: context.resource.environmentName };
  const role = {
    cluster: "applications",
    loadBalancer: (scheme: Scheme) => `applications-${schemeSuffix(scheme)}`,
    loadBalancerGroup: (scheme: Scheme) => `applications-${schemeSuffix(scheme)}-lb`,
  };
  return {
    id,
    role,
    clusterName: `${physicalName(environment, 200)}-applications`,
    // Load balancer names: at most 32 characters, no trailing hyphen.
    loadBalancerName: (scheme: Scheme) => `${physicalName(environment, 27)}-${schemeSuffix(scheme)}`,
    loadBalancerGroupName: (scheme: Scheme) => `${physicalName(environment, 200)}-lb-${schemeSuffix(scheme)}`,
    /** How a shared security group is found again: the environment and its role. */
    key: (sharedRole: string) => ({ [TAG_ENVIRONMENT]: id, [TAG_SHARED]: sharedRole }),
    tags: (sharedRole: string): Record<string, string> => ({
      [TAG_ORGANIZATION]: context.tags[TAG_ORGANIZATION] ?? "",
      [TAG_ENVIRONMENT]: id,
      [TAG_SHARED]: sharedRole,
      Name: `${environment.name}-${sharedRole}`,
    }),
  };
}
type Environment = ReturnType<typeof environmentOf>;

const ecsTags = (tags: Record<string, string>) =>
  Object.entries(tags).map(([key, value]) => ({ key, value }));
const hasTags = (tags: { key?: string; value?: string }[] | undefined, wanted: Record<string, string>) =>
  Object.entries(wanted).every(([key, value]) => tags?.some((tag) => tag.key === key && tag.value === value));

async function ecsOf(context: ProvisionContext) {
  return { ecs: await context.aws.ecs(), sdk: await import("@aws-sdk/client-ecs") };
}
async function elbOf(context: ProvisionContext) {
  return { elb: await context.aws.elbv2(), sdk: await import("@aws-sdk/client-elastic-load-balancing-v2") };
}

// ---------------------------------------------------------------------------------------------------------------
// What the environment's applications share

/** The environment's ECS cluster for applications, found by its tags. */
async function findCluster(context: ProvisionContext, environment: Environment) {
  const { ecs, sdk } = await ecsOf(context);
  const wanted = { [TAG_ENVIRONMENT]: environment.id, [TAG_SHARED]: environment.role.cluster };
  const matching = async (arns: string[]) => {
    for (let start = 0; start < arns.length; start += 100) {
      const answer = await ecs.send(
        new sdk.DescribeClustersCommand({ clusters: arns.slice(start, start + 100), include: ["TAGS"] }),
      );
      const found = (answer.clusters ?? []).find(
        (cluster) => cluster.status === "ACTIVE" && hasTags(cluster.tags, wanted),
      );
      if (found) return found;
    }
    return undefined;
  };
  // The cluster an earlier step recorded, else every cluster of the account.
  const recorded = context.state.clusterArn ? await matching([context.state.clusterArn]) : undefined;
  if (recorded) return recorded;
  const all: string[] = [];
  for await (const page of sdk.paginateListClusters({ client: ecs }, {}))
    all.push(...(page.clusterArns ?? []));
  return matching(all);
}

async function ensureCluster(context: ProvisionContext, environment: Environment): Promise<string> {
  const found = await findCluster(context, environment);
  if (found?.clusterArn) return found.clusterArn;
  const { ecs, sdk } = await ecsOf(context);
  // CreateCluster is idempotent by name: two applications creating it at once get the same cluster.
  const created = await ecs.send(
    new sdk.CreateClusterCommand({
      clusterName: environment.clusterName,
      tags: ecsTags(environment.tags(environment.role.cluster)),
    }),
  );
  if (!created.cluster?.clusterArn)
    throw new Error(`ECS did not return the ARN of ${environment.clusterName}`);
  context.log("info", `Created ECS cluster ${environment.clusterName} for the environment's applications`);
  return created.cluster.clusterArn;
}

/** The environment's load balancer of `scheme`, found by its tags. */
async function findLoadBalancer(
  context: ProvisionContext,
  environment: Environment,
  scheme: Scheme,
): Promise<LoadBalancer | undefined> {
  const { elb, sdk } = await elbOf(context);
  const wanted = tagList({
    [TAG_ENVIRONMENT]: environment.id,
    [TAG_SHARED]: environment.role.loadBalancer(scheme),
  });
  const matching = async (balancers: LoadBalancer[]) => {
    const candidates = balancers.filter(
      (balancer) => balancer.Type === "application" && balancer.Scheme === scheme,
    );
    for (let start = 0; start < candidates.length; start += 20) {
      const batch = candidates.slice(start, start + 20);
      const answer = await elb.send(
        new sdk.DescribeTagsCommand({
          ResourceArns: batch.map((balancer) => balancer.LoadBalancerArn ?? ""),
        }),
      );
      const match = (answer.TagDescriptions ?? []).find((description) =>
        wanted.every((tag) =>
          description.Tags?.some((own) => own.Key === tag.Key && own.Value === tag.Value),
        ),
      );
      if (match) return batch.find((balancer) => balancer.LoadBalancerArn === match.ResourceArn);
    }
    return undefined;
  };
  // The load balancer an earlier step recorded, else every load balancer of the account.
  const recordedArn = context.state.loadBalancerArn;
  const recorded = recordedArn
    ? await unlessMissing(
        () => elb.send(new sdk.DescribeLoadBalancersCommand({ LoadBalancerArns: [recordedArn] })),
        "LoadBalancerNotFoundException",
      )
    : undefined;
  const found = await matching(recorded?.LoadBalancers ?? []);
  if (found) return found;
  const all: LoadBalancer[] = [];
  for await (const page of sdk.paginateDescribeLoadBalancers({ client: elb }, {})) {
    all.push(...(page.LoadBalancers ?? []));
  }
  return matching(all);
}

/**
 * The load balancer's own security group, open on its listener ports: to the internet (IPv4 and IPv6) for the
 * internet-facing one, to the environment's services (the network's group) for the internal one. The network's
 * group is not the load balancer's: it lets the environment's services reach each other and nothing else in.
 */
async function ensureLoadBalancerGroup(
  context: ProvisionContext,
  environment: Environment,
  network: Network,
  scheme: Scheme,
): Promise<string> {
  const role = environment.role.loadBalancerGroup(scheme);
  return ensureSecurityGroup(context, {
    vpcId: network.vpcId,
    name: environment.loadBalancerGroupName(scheme),
    description:
      scheme === "internal"
        ? `The environment's internal load balancer: HTTP and HTTPS from the environment's services`
        : `The environment's internet-facing load balancer: HTTP and HTTPS from anywhere`,
    tags: environment.tags(role),
    key: environment.key(role),
    inbound: {
      // 443 whether or not an application of the environment is served over HTTPS yet: the load balancer itself
      // refuses a port it has no listener on, and one group shared by every application needs no agreement on it.
      ports: [LISTENER_PORT, HTTPS_PORT],
      from:
        scheme === "internal"
          ? { groupIds: [network.securityGroupId] }
          : { cidrs: ["0.0.0.0/0"], ipv6Cidrs: ["::/0"] },
    },
  });
}

/** The tasks' own security group: the container's port and the health check's, from the load balancer alone. */
async function ensureTasksGroup(context: ProvisionContext, network: Network, loadBalancerGroupId: string) {
  const { networking, healthCheck } = context.resource.settings;
  const name = namesOf(context.resource).tasksGroup;
  return ensureSecurityGroup(context, {
    vpcId: network.vpcId,
    name,
    description: `The tasks of ${context.resource.name}: only its load balancer reaches them`,
    tags: { ...context.tags, [TAG_PART]: "tasks", Name: name },
    key: tasksGroupKey(context),
    inbound: { ports: [networking.port, healthCheck.port], from: { groupIds: [loadBalancerGroupId] } },
  });
}

async function ensureLoadBalancer(
  context: ProvisionContext,
  environment: Environment,
  network: Network,
  scheme: Scheme,
  groupId: string,
): Promise<LoadBalancer> {
  const { elb, sdk } = await elbOf(context);
  const found = await findLoadBalancer(context, environment, scheme);
  if (found) {
    // A load balancer created before it had its own group (behind the network's): given its own now.
    if (found.SecurityGroups?.length !== 1 || found.SecurityGroups[0] !== groupId) {
      await elb.send(
        new sdk.SetSecurityGroupsCommand({
          LoadBalancerArn: found.LoadBalancerArn,
          SecurityGroups: [groupId],
        }),
      );
      context.log("info", `Load balancer ${found.LoadBalancerName} is now behind its own security group`);
    }
    return found;
  }
  const name = environment.loadBalancerName(scheme);
  // Idempotent by name, like the cluster.
  const created = await elb.send(
    new sdk.CreateLoadBalancerCommand({
      Name: name,
      Type: "application",
      Scheme: scheme,
      Subnets: scheme === "internal" ? network.privateSubnetIds : network.publicSubnetIds,
      SecurityGroups: [groupId],
      Tags: tagList(environment.tags(environment.role.loadBalancer(scheme))),
    }),
  );
  const balancer = created.LoadBalancers?.[0];
  if (!balancer?.LoadBalancerArn) throw new Error(`ELB did not return the load balancer ${name}`);
  context.log("info", `Created ${scheme} load balancer ${name} for the environment's applications`);
  return balancer;
}

/** What a listener answers to a request no rule matches. */
const notFound: Action = {
  Type: "fixed-response",
  FixedResponseConfig: { StatusCode: "404", ContentType: "text/plain", MessageBody: "No application here" },
};

/** The load balancer's HTTP listener; requests no rule matches get a 404. */
async function ensureListener(
  context: ProvisionContext,
  environment: Environment,
  balancer: LoadBalancer,
  scheme: Scheme,
) {
  const { elb, sdk } = await elbOf(context);
  const listeners = async () =>
    (await elb.send(new sdk.DescribeListenersCommand({ LoadBalancerArn: balancer.LoadBalancerArn })))
      .Listeners ?? [];
  const existing = (await listeners()).find((listener) => listener.Port === LISTENER_PORT);
  if (existing?.ListenerArn) return existing.ListenerArn;
  try {
    const created = await elb.send(
      new sdk.CreateListenerCommand({
        LoadBalancerArn: balancer.LoadBalancerArn,
        Protocol: "HTTP",
        Port: LISTENER_PORT,
        DefaultActions: [notFound],
        Tags: tagList(environment.tags(environment.role.loadBalancer(scheme))),
      }),
    );
    const arn = created.Listeners?.[0]?.ListenerArn;
    if (!arn) throw new Error(`ELB did not return the listener of ${balancer.LoadBalancerName}`);
    return arn;
  } catch (error) {
    if (!isAwsError(error, "DuplicateListenerException")) throw error;
    const raced = (await listeners()).find((listener) => listener.Port === LISTENER_PORT);
    if (!raced?.ListenerArn) throw error;
    return raced.ListenerArn;
  }
}

/**
 * Deletes the environment's load balancer of `scheme` once no application's rule is left on it, then its security
 * group; false while AWS still holds that group (the deleted load balancer's network interfaces linger a while).
 */
async function releaseLoadBalancer(
  context: ProvisionContext,
  environment: Environment,
  scheme: Scheme,
): Promise<boolean> {
  const balancer = await findLoadBalancer(context, environment, scheme);
  if (balancer?.LoadBalancerArn) {
    const { elb, sdk } = await elbOf(context);
    const listeners =
      (await elb.send(new sdk.DescribeListenersCommand({ LoadBalancerArn: balancer.LoadBalancerArn })))
        .Listeners ?? [];
    for (const listener of listeners) {
      const rules =
        (await elb.send(new sdk.DescribeRulesCommand({ ListenerArn: listener.ListenerArn }))).Rules ?? [];
      if (rules.some((rule) => !rule.IsDefault)) return true;
    }
    await unlessMissing(
      () => elb.send(new sdk.DeleteLoadBalancerCommand({ LoadBalancerArn: balancer.LoadBalancerArn })),
      "LoadBalancerNotFoundException",
    );
    context.log(
      "info",
      `Deleted load balancer ${balancer.LoadBalancerName}: no application uses it any more`,
    );
  }
  return deleteSecurityGroup(context, environment.key(environment.role.loadBalancerGroup(scheme)));
}

/** Deletes the environment's ECS cluster once no service is left in it. */
async function releaseCluster(context: ProvisionContext, environment: Environment) {
  const cluster = await findCluster(context, environment);
  if (!cluster?.clusterArn) return;
  const { ecs, sdk } = await ecsOf(context);
  const arns: string[] = [];
  for await (const page of sdk.paginateListServices({ client: ecs }, { cluster: cluster.clusterArn })) {
    arns.push(...(page.serviceArns ?? []));
  }
  for (let start = 0; start < arns.length; start += 10) {
    const answer = await ecs.send(
      new sdk.DescribeServicesCommand({
        cluster: cluster.clusterArn,
        services: arns.slice(start, start + 10),
      }),
    );
    if ((answer.services ?? []).some((service) => service.status !== "INACTIVE")) return;
  }
  // A service created meanwhile keeps it: ECS refuses to delete a cluster that has one.
  const deleted = await unlessMissing(
    () => ecs.send(new sdk.DeleteClusterCommand({ cluster: cluster.clusterArn })),
    "ClusterContainsServicesException",
    "ClusterNotFoundException",
  );
  if (deleted)
    context.log("info", `Deleted ECS cluster ${cluster.clusterName}: no application runs in it any more`);
}

// ---------------------------------------------------------------------------------------------------------------
// The application's own resources

/**
 * The application's variables as its task definition takes them (decision 074): plain ones as values, secret ones
 * by reference to the version of the application's secret (Secrets Manager, JSON by name) that holds them, which
 * ECS reads when it starts a task.
 */
type TaskVariables = {
  plain: ResolvedVariable[];
  secret: ResolvedVariable[];
  secretVersion: SecretVersion | null;
};
type SecretVersion = { arn: string; versionId: string };

const byName = (a: { name?: string }, b: { name?: string }) => (a.name ?? "").localeCompare(b.name ?? "");

/** The container as the settings describe it, logging to the application's log group in `region`. */
function containerOf(
  resource: DriverResource,
  region: string,
  variables: TaskVariables,
): ContainerDefinition {
  const image = applicationImageOf(resource.config);
  const { networking } = resource.settings;
  const { secretVersion } = variables;
  return {
    name: CONTAINER_NAME,
    image,
    essential: true,
    portMappings: [{ containerPort: networking.port, protocol: "tcp" }],
    environment: [...variables.plain]
      .sort(byName)
      .map((variable) => ({ name: variable.name, value: variable.value })),
    ...(secretVersion && variables.secret.length
      ? {
          secrets: [...variables.secret].sort(byName).map((variable) => ({
            name: variable.name,
            valueFrom: `${secretVersion.arn}:${variable.name}::${secretVersion.versionId}`,
          })),
        }
      : {}),
    logConfiguration: {
      logDriver: "awslogs",
      options: {
        "awslogs-group": namesOf(resource).logGroup,
        "awslogs-region": region,
        "awslogs-stream-prefix": CONTAINER_NAME,
      },
    },
  };
}

function sameTaskDefinition(
  current: TaskDefinition,
  resource: DriverResource,
  wanted: ContainerDefinition,
  executionRoleArn: string,
): boolean {
  const container = current.containerDefinitions?.find((definition) => definition.name === CONTAINER_NAME);
  const environment = [...(container?.environment ?? [])].sort((a, b) =>
    (a.name ?? "").localeCompare(b.name ?? ""),
  );
  return (
    current.cpu === String(vCpuUnits[resource.settings.hardware.cpu]) &&
    current.memory === String(resource.settings.hardware.memoryMb) &&
    container?.image === wanted.image &&
    container?.portMappings?.[0]?.containerPort === resource.settings.networking.port &&
    current.executionRoleArn === executionRoleArn &&
    container.logConfiguration?.logDriver === "awslogs" &&
    JSON.stringify(Object.entries(container.logConfiguration.options ?? {}).sort()) ===
      JSON.stringify(Object.entries(wanted.logConfiguration?.options ?? {}).sort()) &&
    JSON.stringify(environment.map((variable) => [variable.name, variable.value])) ===
      JSON.stringify(wanted.environment?.map((variable) => [variable.name, variable.value])) &&
    JSON.stringify(
      [...(container.secrets ?? [])].sort(byName).map((secret) => [secret.name, secret.valueFrom]),
    ) === JSON.stringify((wanted.secrets ?? []).map((secret) => [secret.name, secret.valueFrom]))
  );
}

/** `arn:aws:ecs:…:task-definition/web-1a2b3c4d:3` → `web-1a2b3c4d` and 3. */
const familyOf = (arn: string) => arn.split("/").at(-1)?.split(":")[0];
const revisionOf = (arn: string) => Number(arn.split(":").at(-1));

/** The family's latest revision when it matches the settings, else a new revision. */
async function ensureTaskDefinition(
  context: ProvisionContext,
  family: string,
  executionRoleArn: string,
  variables: TaskVariables,
): Promise<string> {
  const container = containerOf(context.resource, context.aws.region, variables);
  const { ecs, sdk } = await ecsOf(context);
  const active: string[] = [];
  for await (const page of sdk.paginateListTaskDefinitions(
    { client: ecs },
    { familyPrefix: family, status: "ACTIVE" },
  )) {
    active.push(...(page.taskDefinitionArns ?? []).filter((arn) => familyOf(arn) === family));
  }
  const latestArn = active.sort((a, b) => revisionOf(b) - revisionOf(a))[0];
  if (latestArn) {
    const current = (await ecs.send(new sdk.DescribeTaskDefinitionCommand({ taskDefinition: latestArn })))
      .taskDefinition;
    if (current && sameTaskDefinition(current, context.resource, container, executionRoleArn))
      return latestArn;
  }
  const { hardware } = context.resource.settings;
  const registered = await ecs.send(
    new sdk.RegisterTaskDefinitionCommand({
      family,
      requiresCompatibilities: ["FARGATE"],
      networkMode: "awsvpc",
      cpu: String(vCpuUnits[hardware.cpu]),
      memory: String(hardware.memoryMb),
      runtimePlatform: { operatingSystemFamily: "LINUX", cpuArchitecture: "X86_64" },
      executionRoleArn,
      containerDefinitions: [container],
      tags: ecsTags(context.tags),
    }),
  );
  const arn = registered.taskDefinition?.taskDefinitionArn;
  if (!arn) throw new Error(`ECS did not return the task definition of ${family}`);
  context.log("info", `Registered task definition ${family}:${registered.taskDefinition?.revision}`);
  // What the new revision's variables came from, by name (a value never).
  for (const variable of [...variables.plain, ...variables.secret].sort(byName)) {
    const words = referenceWords(variable);
    if (words) context.log("info", words);
  }
  return arn;
}

const healthCheckOf = (resource: DriverResource) => {
  const check = resource.settings.healthCheck;
  return {
    HealthCheckProtocol: "HTTP" as const,
    HealthCheckPath: check.path,
    HealthCheckPort: String(check.port),
    HealthCheckIntervalSeconds: check.intervalSeconds,
    HealthCheckTimeoutSeconds: check.timeoutSeconds,
    HealthyThresholdCount: check.healthyThreshold,
    Matcher: { HttpCode: "200-399" },
  };
};

async function describeTargetGroup(
  context: ProvisionContext,
  name: string,
): Promise<TargetGroup | undefined> {
  const { elb, sdk } = await elbOf(context);
  const answer = await unlessMissing(
    () => elb.send(new sdk.DescribeTargetGroupsCommand({ Names: [name] })),
    "TargetGroupNotFoundException",
  );
  return answer?.TargetGroups?.[0];
}

/** The target group of `scheme`, with the settings' health check. */
async function ensureTargetGroup(
  context: ProvisionContext,
  network: Network,
  scheme: Scheme,
): Promise<string> {
  const { elb, sdk } = await elbOf(context);
  const name = namesOf(context.resource).targetGroup(scheme);
  const wanted = healthCheckOf(context.resource);
  const group = await describeTargetGroup(context, name);
  if (!group?.TargetGroupArn) {
    const created = await elb.send(
      new sdk.CreateTargetGroupCommand({
        Name: name,
        TargetType: "ip",
        Protocol: "HTTP",
        Port: context.resource.settings.networking.port,
        VpcId: network.vpcId,
        ...wanted,
        Tags: tagList(context.tags),
      }),
    );
    const arn = created.TargetGroups?.[0]?.TargetGroupArn;
    if (!arn) throw new Error(`ELB did not return the target group ${name}`);
    context.log("info", `Created target group ${name} (health check ${wanted.HealthCheckPath})`);
    return arn;
  }
  const drifted =
    group.HealthCheckPath !== wanted.HealthCheckPath ||
    group.HealthCheckPort !== wanted.HealthCheckPort ||
    group.HealthCheckIntervalSeconds !== wanted.HealthCheckIntervalSeconds ||
    group.HealthCheckTimeoutSeconds !== wanted.HealthCheckTimeoutSeconds ||
    group.HealthyThresholdCount !== wanted.HealthyThresholdCount;
  if (drifted) {
    await elb.send(new sdk.ModifyTargetGroupCommand({ TargetGroupArn: group.TargetGroupArn, ...wanted }));
    context.log("info", `Changed the health check of ${name} to ${wanted.HealthCheckPath}`);
  }
  return group.TargetGroupArn;
}

/**
 * Where the load balancer sends the application's requests: its custom domain (any path), else its path prefix,
 * forwarded as it came: ALB cannot strip it (docs/decisions/049).
 */
function conditionsOf(resource: DriverResource): RuleCondition[] {
  const { customDomain } = resource.settings.networking;
  return customDomain
    ? [{ Field: "host-header", HostHeaderConfig: { Values: [customDomain] } }]
    : [
        {
          Field: "path-pattern",
          PathPatternConfig: { Values: [`/${resource.name}`, `/${resource.name}/*`] },
        },
      ];
}

const conditionValues = (conditions: RuleCondition[] | undefined) =>
  JSON.stringify(
    (conditions ?? []).map((condition) => [
      condition.Field,
      condition.HostHeaderConfig?.Values ?? condition.PathPatternConfig?.Values ?? condition.Values,
    ]),
  );

/** What a rule does, as it compares: forward to which target group, or redirect to which protocol. */
const actionValues = (actions: Action[] | undefined) =>
  JSON.stringify(
    (actions ?? []).map((action) => [
      action.Type,
      action.TargetGroupArn ?? action.ForwardConfig?.TargetGroups?.[0]?.TargetGroupArn ?? null,
      action.RedirectConfig?.Protocol ?? null,
    ]),
  );

const forwardTo = (targetGroupArn: string): Action[] => [{ Type: "forward", TargetGroupArn: targetGroupArn }];
/** The HTTP listener's answer for a domain served over HTTPS: the same address, https, for good. */
const redirectToHttps: Action[] = [
  {
    Type: "redirect",
    RedirectConfig: { Protocol: "HTTPS", Port: String(HTTPS_PORT), StatusCode: "HTTP_301" },
  },
];

const forwardsTo = (targetGroupArn: string) => (rule: Rule) =>
  (rule.Actions ?? []).some(
    (action) =>
      action.Type === "forward" &&
      (action.TargetGroupArn === targetGroupArn ||
        action.ForwardConfig?.TargetGroups?.some((group) => group.TargetGroupArn === targetGroupArn)),
  );

/** The listener's rules but its default one, each with its tags. */
async function rulesOf(context: ProvisionContext, listenerArn: string) {
  const { elb, sdk } = await elbOf(context);
  const rules = (
    (await elb.send(new sdk.DescribeRulesCommand({ ListenerArn: listenerArn }))).Rules ?? []
  ).filter((rule) => !rule.IsDefault);
  const tags = new Map<string, Record<string, string>>();
  for (let start = 0; start < rules.length; start += 20) {
    const answer = await elb.send(
      new sdk.DescribeTagsCommand({
        ResourceArns: rules.slice(start, start + 20).map((rule) => rule.RuleArn ?? ""),
      }),
    );
    for (const description of answer.TagDescriptions ?? []) {
      tags.set(
        description.ResourceArn ?? "",
        Object.fromEntries((description.Tags ?? []).map((tag) => [tag.Key ?? "", tag.Value ?? ""])),
      );
    }
  }
  return rules.map((rule) => ({ rule, tags: tags.get(rule.RuleArn ?? "") ?? {} }));
}

const ownedBy = (context: ProvisionContext) => (entry: { tags: Record<string, string> }) =>
  entry.tags[TAG_SERVICE] === context.tags[TAG_SERVICE];

/**
 * The application's rule on the listener (found by its service tag), with the routing conditions and `actions`:
 * created, or changed in place. `tags` are set on it besides the application's (the certificate an HTTPS rule serves).
 */
async function ensureRule(
  context: ProvisionContext,
  listenerArn: string,
  actions: Action[],
  tags: Record<string, string> = {},
): Promise<string> {
  const { elb, sdk } = await elbOf(context);
  const rules = await rulesOf(context, listenerArn);
  const conditions = conditionsOf(context.resource);
  const existing = rules.find(ownedBy(context));
  const existingArn = existing?.rule.RuleArn;
  if (existing && existingArn) {
    const { rule } = existing;
    if (
      conditionValues(rule.Conditions) !== conditionValues(conditions) ||
      actionValues(rule.Actions) !== actionValues(actions)
    ) {
      await elb.send(
        new sdk.ModifyRuleCommand({ RuleArn: existingArn, Conditions: conditions, Actions: actions }),
      );
      context.log("info", `Changed the routing of ${context.resource.name} on the load balancer`);
    }
    if (Object.entries(tags).some(([key, value]) => existing.tags[key] !== value)) {
      await elb.send(new sdk.AddTagsCommand({ ResourceArns: [existingArn], Tags: tagList(tags) }));
    }
    return existingArn;
  }
  const taken = new Set(rules.map(({ rule }) => Number(rule.Priority)).filter(Number.isFinite));
  let priority = 1;
  while (taken.has(priority)) priority++;
  let created;
  try {
    created = await elb.send(
      new sdk.CreateRuleCommand({
        ListenerArn: listenerArn,
        Priority: priority,
        Conditions: conditions,
        Actions: actions,
        Tags: tagList({ ...context.tags, ...tags }),
      }),
    );
  } catch (error) {
    // Another application of the environment took that priority meanwhile: look again.
    if (isAwsError(error, "PriorityInUseException")) return ensureRule(context, listenerArn, actions, tags);
    throw error;
  }
  const arn = created.Rules?.[0]?.RuleArn;
  if (!arn) throw new Error("ELB did not return the listener rule");
  const what = actions[0]?.Type === "redirect" ? "redirecting to HTTPS" : `to ${context.resource.name}`;
  context.log("info", `Routing ${conditionValues(conditions)} ${what} (rule priority ${priority})`);
  return arn;
}

async function listenerOn(context: ProvisionContext, loadBalancerArn: string, port: number) {
  const { elb, sdk } = await elbOf(context);
  const answer = await elb.send(new sdk.DescribeListenersCommand({ LoadBalancerArn: loadBalancerArn }));
  return (answer.Listeners ?? []).find((listener) => listener.Port === port);
}

/**
 * The load balancer's HTTPS listener, created with `certificateArn` as its default certificate when missing (an
 * HTTPS listener cannot be without one); requests no rule matches get a 404, like on HTTP.
 */
async function ensureHttpsListener(
  context: ProvisionContext,
  environment: Environment,
  balancer: LoadBalancer,
  scheme: Scheme,
  certificateArn: string,
): Promise<string> {
  const balancerArn = balancer.LoadBalancerArn ?? "";
  const existing = await listenerOn(context, balancerArn, HTTPS_PORT);
  if (existing?.ListenerArn) return existing.ListenerArn;
  const { elb, sdk } = await elbOf(context);
  try {
    const created = await elb.send(
      new sdk.CreateListenerCommand({
        LoadBalancerArn: balancerArn,
        Protocol: "HTTPS",
        Port: HTTPS_PORT,
        SslPolicy: SSL_POLICY,
        Certificates: [{ CertificateArn: certificateArn }],
        DefaultActions: [notFound],
        Tags: tagList(environment.tags(environment.role.loadBalancer(scheme))),
      }),
    );
    const arn = created.Listeners?.[0]?.ListenerArn;
    if (!arn) throw new Error(`ELB did not return the HTTPS listener of ${balancer.LoadBalancerName}`);
    context.log("info", `Created the HTTPS listener of load balancer ${balancer.LoadBalancerName}`);
    return arn;
  } catch (error) {
    if (!isAwsError(error, "DuplicateListenerException")) throw error;
    const raced = await listenerOn(context, balancerArn, HTTPS_PORT);
    if (!raced?.ListenerArn) throw error;
    return raced.ListenerArn;
  }
}

/**
 * Keeps the HTTPS listener's certificates exactly those its rules serve (each HTTPS rule's TAG_CERTIFICATE), the
 * default one among them, and deletes the listener once no rule is left on it: a certificate left attached would
 * keep its TLS service from being deleted (ACM refuses with ResourceInUseException). Several applications share
 * the listener; a browser gets each domain's certificate by SNI.
 */
async function syncHttpsCertificates(context: ProvisionContext, loadBalancerArn: string) {
  const listener = await listenerOn(context, loadBalancerArn, HTTPS_PORT);
  if (!listener?.ListenerArn) return;
  const { elb, sdk } = await elbOf(context);
  const ListenerArn = listener.ListenerArn;
  const rules = await rulesOf(context, ListenerArn);
  if (rules.length === 0) {
    await unlessMissing(
      () => elb.send(new sdk.DeleteListenerCommand({ ListenerArn })),
      "ListenerNotFoundException",
    );
    context.log(
      "info",
      "Deleted the load balancer's HTTPS listener: no application is served over HTTPS on it",
    );
    return;
  }
  const needed = [...new Set(rules.map((entry) => entry.tags[TAG_CERTIFICATE] ?? ""))].filter(Boolean);
  const [first] = needed;
  if (!first) return;
  const attached = async () =>
    (await elb.send(new sdk.DescribeListenerCertificatesCommand({ ListenerArn }))).Certificates ?? [];
  let certificates = await attached();
  const byDefault = certificates.find((certificate) => certificate.IsDefault)?.CertificateArn;
  if (!byDefault || !needed.includes(byDefault)) {
    await elb.send(new sdk.ModifyListenerCommand({ ListenerArn, Certificates: [{ CertificateArn: first }] }));
    certificates = await attached();
  }
  const present = new Set(certificates.map((certificate) => certificate.CertificateArn));
  const missing = needed.filter((arn) => !present.has(arn));
  if (missing.length > 0) {
    await elb.send(
      new sdk.AddListenerCertificatesCommand({
        ListenerArn,
        Certificates: missing.map((CertificateArn) => ({ CertificateArn })),
      }),
    );
  }
  const unused = certificates.filter(
    (certificate) => !certificate.IsDefault && !needed.includes(certificate.CertificateArn ?? ""),
  );
  if (unused.length > 0) {
    await elb.send(
      new sdk.RemoveListenerCertificatesCommand({
        ListenerArn,
        Certificates: unused.map(({ CertificateArn }) => ({ CertificateArn })),
      }),
    );
  }
}

/** Deletes the application's rules from the load balancer's listeners, then keeps its HTTPS certificates exact. */
async function removeOwnRules(context: ProvisionContext, loadBalancerArn: string, except?: string) {
  const { elb, sdk } = await elbOf(context);
  const listeners =
    (await elb.send(new sdk.DescribeListenersCommand({ LoadBalancerArn: loadBalancerArn }))).Listeners ?? [];
  for (const listener of listeners) {
    if (!listener.ListenerArn || listener.ListenerArn === except) continue;
    for (const { rule } of (await rulesOf(context, listener.ListenerArn)).filter(ownedBy(context))) {
      await unlessMissing(
        () => elb.send(new sdk.DeleteRuleCommand({ RuleArn: rule.RuleArn })),
        "RuleNotFoundException",
      );
    }
  }
  await syncHttpsCertificates(context, loadBalancerArn);
}

/**
 * How the application's domain is served: over HTTPS with the ACM ARN of its TLS certificate service once ACM has
 * issued it (a wait until then: the load balancer refuses a certificate that is not issued), over HTTP without a
 * domain or a certificate (an application configured before domains named one).
 */
async function httpsOf(
  context: ProvisionContext,
): Promise<{ certificateArn: string } | { waiting: string } | undefined> {
  const { customDomain } = context.resource.settings.networking;
  if (!customDomain || !context.certificate) return undefined;
  const { name, arn } = context.certificate;
  if (name === null) {
    throw new ProvisionError(
      `The TLS certificate chosen for ${customDomain} is no longer in the environment: choose another in the application's Domain field`,
    );
  }
  if (!arn) return { waiting: `Waiting for the TLS certificate ${name} to be deployed` };
  const acm = await context.aws.acm();
  const { DescribeCertificateCommand } = await import("@aws-sdk/client-acm");
  const answer = await unlessMissing(
    () => acm.send(new DescribeCertificateCommand({ CertificateArn: arn })),
    "ResourceNotFoundException",
  );
  const status = answer?.Certificate?.Status;
  if (status === "ISSUED") return { certificateArn: arn };
  if (status === "PENDING_VALIDATION") {
    return {
      waiting: `Waiting for ACM to issue the certificate ${name} for ${customDomain}: create the DNS records its service shows`,
    };
  }
  throw new ProvisionError(
    status
      ? `The TLS certificate ${name} is ${status}: ${customDomain} cannot be served over HTTPS with it`
      : `The ACM certificate of ${name} no longer exists: deploy ${name} again`,
  );
}

/**
 * Takes the application off the environment's load balancer of `scheme`: its rules (and the HTTPS certificate only
 * it used), then its target group; false while ELB still holds the target group.
 */
async function removeRouting(context: ProvisionContext, environment: Environment, scheme: Scheme) {
  const balancer = await findLoadBalancer(context, environment, scheme);
  if (balancer?.LoadBalancerArn) await removeOwnRules(context, balancer.LoadBalancerArn);
  return removeTargetGroup(context, scheme);
}

/** Deletes the target group of `scheme` and the rules forwarding to it; false while ELB still holds it. */
async function removeTargetGroup(context: ProvisionContext, scheme: Scheme): Promise<boolean> {
  const { elb, sdk } = await elbOf(context);
  const group = await describeTargetGroup(context, namesOf(context.resource).targetGroup(scheme));
  if (!group?.TargetGroupArn) return true;
  for (const loadBalancerArn of group.LoadBalancerArns ?? []) {
    const listeners =
      (await elb.send(new sdk.DescribeListenersCommand({ LoadBalancerArn: loadBalancerArn }))).Listeners ??
      [];
    for (const listener of listeners) {
      const rules =
        (await elb.send(new sdk.DescribeRulesCommand({ ListenerArn: listener.ListenerArn }))).Rules ?? [];
      for (const rule of rules.filter(
        (candidate) => !candidate.IsDefault && forwardsTo(group.TargetGroupArn ?? "")(candidate),
      )) {
        await unlessMissing(
          () => elb.send(new sdk.DeleteRuleCommand({ RuleArn: rule.RuleArn })),
          "RuleNotFoundException",
        );
      }
    }
  }
  try {
    await unlessMissing(
      () => elb.send(new sdk.DeleteTargetGroupCommand({ TargetGroupArn: group.TargetGroupArn })),
      "TargetGroupNotFoundException",
    );
  } catch (error) {
    // Still registered with a service that is draining.
    if (isAwsError(error, "ResourceInUseException")) return false;
    throw error;
  }
  context.log("info", `Deleted target group ${group.TargetGroupName} and its listener rule`);
  return true;
}

async function describeService(context: ProvisionContext, clusterArn: string, name: string) {
  const { ecs, sdk } = await ecsOf(context);
  const answer = await unlessMissing(
    () => ecs.send(new sdk.DescribeServicesCommand({ cluster: clusterArn, services: [name] })),
    "ClusterNotFoundException",
  );
  return answer?.services?.find((service) => service.status !== "INACTIVE");
}

/** Whether the service runs what it was last given, all its tasks started (ECS's rollout COMPLETED). */
function rolloutOf(service: Service): { done: boolean; progress: string } {
  const primary = service.deployments?.find((deployment) => deployment.status === "PRIMARY");
  if (primary?.rolloutState === "FAILED") {
    throw new Error(
      `ECS could not deploy ${service.serviceName}: ${primary.rolloutStateReason ?? "rollout failed"}`,
    );
  }
  const running = `${service.runningCount ?? 0} of ${service.desiredCount ?? 0} tasks running`;
  const settled = (service.deployments ?? []).length === 1;
  const completed = primary?.rolloutState
    ? primary.rolloutState === "COMPLETED"
    : (service.runningCount ?? 0) === (service.desiredCount ?? 0);
  return { done: settled && completed, progress: `Deploying (${running})` };
}

/** Application Auto Scaling's id of an ECS service: `service/{cluster name}/{service name}`. */
const scalingTargetOf = (clusterArn: string, serviceName: string) => ({
  ServiceNamespace: "ecs" as const,
  ResourceId: `service/${clusterArn.split("/").at(-1)}/${serviceName}`,
  ScalableDimension: "ecs:service:DesiredCount" as const,
});

const cpuPolicyName = (serviceName: string) => `${serviceName}-cpu`;

/** Keeps the service between the settings' minimum and maximum tasks, tracking their average CPU target. */
async function applyAutoScaling(context: ProvisionContext, clusterArn: string, serviceName: string) {
  const client = await context.aws.applicationAutoScaling();
  const sdk = await import("@aws-sdk/client-application-auto-scaling");
  const { minInstances, maxInstances, targetCpuPercent } = context.resource.settings.scaling;
  const target = scalingTargetOf(clusterArn, serviceName);
  const policyName = cpuPolicyName(serviceName);

  const registered = await client.send(
    new sdk.DescribeScalableTargetsCommand({ ...target, ResourceIds: [target.ResourceId] }),
  );
  const current = registered.ScalableTargets?.[0];
  if (current?.MinCapacity !== minInstances || current.MaxCapacity !== maxInstances) {
    await client.send(
      new sdk.RegisterScalableTargetCommand({
        ...target,
        MinCapacity: minInstances,
        MaxCapacity: maxInstances,
        ...(current ? {} : { Tags: context.tags }),
      }),
    );
    context.log("info", `Autoscaling ${serviceName} between ${minInstances} and ${maxInstances} tasks`);
  }
  const policies = await client.send(
    new sdk.DescribeScalingPoliciesCommand({ ...target, PolicyNames: [policyName] }),
  );
  const tracking = policies.ScalingPolicies?.[0]?.TargetTrackingScalingPolicyConfiguration;
  if (tracking?.TargetValue !== targetCpuPercent) {
    await client.send(
      new sdk.PutScalingPolicyCommand({
        ...target,
        PolicyName: policyName,
        PolicyType: "TargetTrackingScaling",
        TargetTrackingScalingPolicyConfiguration: {
          TargetValue: targetCpuPercent,
          PredefinedMetricSpecification: { PredefinedMetricType: "ECSServiceAverageCPUUtilization" },
          ScaleInCooldown: 60,
          ScaleOutCooldown: 60,
        },
      }),
    );
    context.log("info", `Scaling ${serviceName} to keep its average CPU at ${targetCpuPercent}%`);
  }
}

/** The CPU policy, then the scalable target. */
async function removeAutoScaling(context: ProvisionContext, clusterArn: string, serviceName: string) {
  const client = await context.aws.applicationAutoScaling();
  const sdk = await import("@aws-sdk/client-application-auto-scaling");
  const target = scalingTargetOf(clusterArn, serviceName);
  await unlessMissing(
    () =>
      client.send(new sdk.DeleteScalingPolicyCommand({ ...target, PolicyName: cpuPolicyName(serviceName) })),
    "ObjectNotFoundException",
  );
  await unlessMissing(
    () => client.send(new sdk.DeregisterScalableTargetCommand(target)),
    "ObjectNotFoundException",
  );
}

/**
 * The application's address (docs/decisions/049, 053): its domain, which the load balancer routes to it whatever
 * the path, over HTTPS with its certificate; else the load balancer's name under /<name>/, which it forwards with the path unchanged (an ALB rewrites no
 * path), so the application serves its pages under that prefix, as the configuration's Domain field says.
 */
function endpointOf(resource: DriverResource, balancer: LoadBalancer, https: boolean): string {
  const { customDomain } = resource.settings.networking;
  if (customDomain) return `${https ? "https" : "http"}://${customDomain}`;
  return `http://${balancer.DNSName}/${resource.name}/`;
}

const schemeOf = (resource: DriverResource): Scheme =>
  resource.settings.networking.public ? "internet-facing" : "internal";

export const applicationProvisioner: Provisioner = {
  secretAttributeNames: () => [],
  async apply(context) {
    const network = networkOf(context);
    const environment = environmentOf(context);
    const names = namesOf(context.resource);
    const scheme = schemeOf(context.resource);
    const { ecs, sdk } = await ecsOf(context);
    const { settings } = context.resource;
    const state: Record<string, string> = { ...context.state };

    const https = await httpsOf(context);
    if (https && "waiting" in https) return pending(state, https.waiting, CERTIFICATE_WAIT_MS);
    state.clusterArn = await ensureCluster(context, environment);
    await ensureLogGroup(context, names.logGroup);
    const executionRole = await ensureRole(context, {
      name: names.executionRole,
      service: "ecs-tasks.amazonaws.com",
      policyArns: [managedPolicy("service-role/AmazonECSTaskExecutionRolePolicy")],
      description: `Lets the tasks of ${names.service} pull their image and write their logs`,
    });
    state.executionRoleArn = executionRole.arn;
    state.logGroupName = names.logGroup;
    // Resolved at each step (decision 074): a referenced service not deployed yet is waited for.
    const resolution = await resolvedVariablesOf(context);
    if ("waitingFor" in resolution)
      return pending(state, `Waiting for ${resolution.waitingFor}`, REFERENCE_WAIT_MS);
    const secret = resolution.variables.filter((variable) => variable.secret);
    let secretVersion: SecretVersion | null = null;
    if (secret.length) {
      secretVersion = await ensureSecretValue(context, {
        name: names.variablesSecret,
        description: `The secret variables of ${names.service}, read by its tasks`,
        value: JSON.stringify(
          Object.fromEntries(secret.sort(byName).map((variable) => [variable.name, variable.value])),
        ),
        reader: executionRole.arn,
      });
      state.variablesSecretArn = secretVersion.arn;
    } else {
      await deleteSecret(context, names.variablesSecret);
      delete state.variablesSecretArn;
    }
    state.taskDefinitionArn = await ensureTaskDefinition(context, names.family, executionRole.arn, {
      plain: resolution.variables.filter((variable) => !variable.secret),
      secret,
      secretVersion,
    });
    const balancerGroupId = await ensureLoadBalancerGroup(context, environment, network, scheme);
    const balancer = await ensureLoadBalancer(context, environment, network, scheme, balancerGroupId);
    state.loadBalancerArn = balancer.LoadBalancerArn ?? "";
    // The network's group lets the tasks reach the environment's databases and caches; their own lets the load
    // balancer in.
    const securityGroups = [
      network.securityGroupId,
      await ensureTasksGroup(context, network, balancerGroupId),
    ];
    const networkConfiguration = {
      awsvpcConfiguration: {
        subnets: network.privateSubnetIds,
        securityGroups,
        assignPublicIp: "DISABLED" as const,
      },
    };
    state.listenerArn = await ensureListener(context, environment, balancer, scheme);
    state.targetGroupArn = await ensureTargetGroup(context, network, scheme);
    if (https) {
      // The domain over HTTPS; on HTTP, the same domain is redirected there.
      const httpsListenerArn = await ensureHttpsListener(
        context,
        environment,
        balancer,
        scheme,
        https.certificateArn,
      );
      state.listenerRuleArn = await ensureRule(context, httpsListenerArn, forwardTo(state.targetGroupArn), {
        [TAG_CERTIFICATE]: https.certificateArn,
      });
      await ensureRule(context, state.listenerArn, redirectToHttps);
      await syncHttpsCertificates(context, state.loadBalancerArn);
    } else {
      state.listenerRuleArn = await ensureRule(context, state.listenerArn, forwardTo(state.targetGroupArn));
      // Served over HTTPS before (a domain or its certificate removed): that rule goes.
      await removeOwnRules(context, state.loadBalancerArn, state.listenerArn);
    }

    const loadBalancers = [
      {
        targetGroupArn: state.targetGroupArn,
        containerName: CONTAINER_NAME,
        containerPort: settings.networking.port,
      },
    ];
    const service = await describeService(context, state.clusterArn, names.service);
    if (!service) {
      const created = await ecs.send(
        new sdk.CreateServiceCommand({
          cluster: state.clusterArn,
          serviceName: names.service,
          taskDefinition: state.taskDefinitionArn,
          desiredCount: settings.scaling.minInstances,
          launchType: "FARGATE",
          networkConfiguration,
          loadBalancers,
          healthCheckGracePeriodSeconds:
            settings.healthCheck.intervalSeconds * settings.healthCheck.healthyThreshold,
          deploymentConfiguration: {
            deploymentCircuitBreaker: { enable: true, rollback: true },
            minimumHealthyPercent: 100,
            maximumPercent: 200,
          },
          propagateTags: "SERVICE",
          enableECSManagedTags: true,
          tags: ecsTags(context.tags),
          clientToken: clientToken(context.resource.id, state.clusterArn, "service"),
        }),
      );
      if (created.service?.serviceArn) state.serviceArn = created.service.serviceArn;
      context.log("info", `Created ECS service ${names.service} (${settings.scaling.minInstances} tasks)`);
      return pending(state, "Starting the tasks", DEPLOY_WAIT_MS);
    }
    if (service.serviceArn) state.serviceArn = service.serviceArn;
    if (service.status === "DRAINING")
      return pending(state, "Waiting for the previous service to drain", DEPLOY_WAIT_MS);

    const attached = service.loadBalancers?.[0];
    const sameGroups = (groups: string[] | undefined) =>
      JSON.stringify([...(groups ?? [])].sort()) === JSON.stringify([...securityGroups].sort());
    // The task count is the autoscaler's between the settings' bounds: a deployment only brings it within them.
    const { minInstances, maxInstances } = settings.scaling;
    const currentCount = service.desiredCount ?? minInstances;
    const desiredCount = Math.min(Math.max(currentCount, minInstances), maxInstances);
    const changes = [
      service.taskDefinition !== state.taskDefinitionArn ? "task definition" : null,
      desiredCount !== currentCount ? "task count" : null,
      attached?.targetGroupArn !== state.targetGroupArn ||
      attached?.containerPort !== settings.networking.port
        ? "load balancer"
        : null,
      sameGroups(service.networkConfiguration?.awsvpcConfiguration?.securityGroups)
        ? null
        : "security groups",
    ].filter((change): change is string => change !== null);
    if (changes.length > 0) {
      await ecs.send(
        new sdk.UpdateServiceCommand({
          cluster: state.clusterArn,
          service: names.service,
          taskDefinition: state.taskDefinitionArn,
          desiredCount,
          loadBalancers,
          networkConfiguration,
        }),
      );
      context.log("info", `Updating ECS service ${names.service}: ${changes.join(", ")}`);
      return pending(state, "Rolling out the change", DEPLOY_WAIT_MS);
    }
    await applyAutoScaling(context, state.clusterArn, names.service);
    const rollout = rolloutOf(service);
    if (!rollout.done) return pending(state, rollout.progress, DEPLOY_WAIT_MS);

    // Moved between the public and the internal load balancer: the other side's routing goes now.
    const other = schemes.find((candidate) => candidate !== scheme) ?? scheme;
    if (!(await removeRouting(context, environment, other))) {
      return pending(state, "Removing the previous load balancer routing", DEPLOY_WAIT_MS);
    }
    if (!(await releaseLoadBalancer(context, environment, other))) {
      return pending(
        state,
        "Waiting for AWS to release the previous load balancer's security group",
        DEPLOY_WAIT_MS,
      );
    }

    const current = await findLoadBalancer(context, environment, scheme);
    if (current?.State?.Code !== "active") {
      return pending(state, `Load balancer ${current?.State?.Code ?? "missing"}`, DEPLOY_WAIT_MS);
    }
    return {
      done: true,
      state,
      endpoint: endpointOf(context.resource, current, https !== undefined),
      secrets: {},
      outputs: {
        clusterArn: state.clusterArn,
        serviceArn: state.serviceArn ?? "",
        loadBalancerDnsName: current.DNSName ?? "",
        ...logGroupsOutput([names.logGroup]),
      },
    };
  },

  async destroy(context) {
    const environment = environmentOf(context);
    const names = namesOf(context.resource);
    const { ecs, sdk } = await ecsOf(context);
    const state = { ...context.state };

    const cluster = await findCluster(context, environment);
    const service = cluster?.clusterArn
      ? await describeService(context, cluster.clusterArn, names.service)
      : undefined;
    if (cluster?.clusterArn && service) {
      if (service.status === "ACTIVE") {
        await removeAutoScaling(context, cluster.clusterArn, names.service);
        // force: no need to scale to zero first; ECS stops the tasks while draining.
        await ecs.send(
          new sdk.DeleteServiceCommand({ cluster: cluster.clusterArn, service: names.service, force: true }),
        );
        context.log("info", `Deleting ECS service ${names.service}`);
      }
      return pending(state, "Deleting the ECS service", DEPLOY_WAIT_MS);
    }
    for (const scheme of schemes) {
      if (!(await removeRouting(context, environment, scheme))) {
        return pending(state, "Waiting to delete the target group", DEPLOY_WAIT_MS);
      }
    }

    // Once the tasks are gone (their network interfaces released), and before the load balancer's group it names.
    if (!(await deleteSecurityGroup(context, tasksGroupKey(context)))) {
      return pending(state, "Waiting for AWS to release the tasks' security group", DEPLOY_WAIT_MS);
    }

    const revisions: string[] = [];
    for (const status of ["ACTIVE", "INACTIVE"] as const) {
      for await (const page of sdk.paginateListTaskDefinitions(
        { client: ecs },
        { familyPrefix: names.family, status },
      )) {
        revisions.push(...(page.taskDefinitionArns ?? []).filter((arn) => familyOf(arn) === names.family));
      }
    }
    for (const arn of revisions) {
      await unlessMissing(
        () => ecs.send(new sdk.DeregisterTaskDefinitionCommand({ taskDefinition: arn })),
        "ClientException",
      );
    }
    for (let start = 0; start < revisions.length; start += 10) {
      await ecs.send(
        new sdk.DeleteTaskDefinitionsCommand({ taskDefinitions: revisions.slice(start, start + 10) }),
      );
    }
    if (revisions.length > 0)
      context.log("info", `Deleted task definition ${names.family} (${revisions.length} revisions)`);

    await deleteLogGroup(context, names.logGroup);
    await deleteSecret(context, names.variablesSecret);
    await deleteRole(context, names.executionRole);
    for (const scheme of schemes) {
      if (!(await releaseLoadBalancer(context, environment, scheme))) {
        return pending(
          state,
          "Waiting for AWS to release the load balancer's security group",
          DEPLOY_WAIT_MS,
        );
      }
    }
    await releaseCluster(context, environment);
    return { done: true };
  },

  plan(before, after) {
    return planChanges(before, after, ({ path }) => {
      // Every field of an application's configuration (its source's image, ports, variables, size, scaling, health
      // check, domain, sidecars) lands in a task definition revision or the service, rule and scalable target.
      if (path.startsWith("config.")) return "inPlace";
      // Variables, CPU, memory and port: a new task definition revision; scaling, health check and routing: the
      // scalable target, target group and rule change in place. Volumes and schedules are not provisioned in AWS.
      if (/^settings\.(envvars|hardware|networking|healthCheck|scaling)(\.|$)/.test(path)) return "inPlace";
      return null;
    });
  },

  async units(context) {
    const names = namesOf(context.resource);
    const cluster = await findCluster(context, environmentOf(context));
    if (!cluster?.clusterArn) return [];
    const { ecs, sdk } = await ecsOf(context);
    const arns: string[] = [];
    for await (const page of sdk.paginateListTasks(
      { client: ecs },
      { cluster: cluster.clusterArn, serviceName: names.service },
    )) {
      arns.push(...(page.taskArns ?? []));
    }
    const units = [];
    for (let start = 0; start < arns.length; start += 100) {
      const { tasks = [] } = await ecs.send(
        new sdk.DescribeTasksCommand({ cluster: cluster.clusterArn, tasks: arns.slice(start, start + 100) }),
      );
      // ECS starts a service's tasks in the group "service:<name>"; anything else in the cluster is not its.
      for (const task of tasks) {
        if (task.group !== `service:${names.service}` || !task.taskArn) continue;
        units.push({
          name: task.taskArn.split("/").at(-1) ?? task.taskArn,
          status: task.lastStatus ?? "unknown",
        });
      }
    }
    return units;
  },

  async observe(context) {
    const environment = environmentOf(context);
    const names = namesOf(context.resource);
    const cluster = await findCluster(context, environment);
    const service = cluster?.clusterArn
      ? await describeService(context, cluster.clusterArn, names.service)
      : undefined;
    if (!service)
      return { state: "missing", message: `The ECS service ${names.service} no longer exists in AWS` };
    const failed = service.deployments?.find((deployment) => deployment.rolloutState === "FAILED");
    if (failed) {
      return {
        state: "degraded",
        message: `The last deployment of ${names.service} failed: ${failed.rolloutStateReason}`,
      };
    }
    if ((service.runningCount ?? 0) < (service.desiredCount ?? 0)) {
      return {
        state: "degraded",
        message: `${service.runningCount ?? 0} of ${service.desiredCount} tasks of ${names.service} are running`,
      };
    }
    return { state: "ok" };
  },
};
