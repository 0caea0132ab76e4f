import {
  DescribeScalableTargetsCommand,
  DescribeScalingPoliciesCommand,
} from "@aws-sdk/client-application-auto-scaling";
import {
  DescribeClustersCommand,
  DescribeServicesCommand,
  DescribeTaskDefinitionCommand,
  ListTaskDefinitionsCommand,
  UpdateServiceCommand,
} from "@aws-sdk/client-ecs";
import { DescribeCertificateCommand, RequestCertificateCommand } from "@aws-sdk/client-acm";
import {
  DescribeListenerCertificatesCommand,
  DescribeListenersCommand,
  DescribeLoadBalancersCommand,
  DescribeRulesCommand,
  DescribeTargetGroupsCommand,
  SetSecurityGroupsCommand,
} from "@aws-sdk/client-elastic-load-balancing-v2";
import { DescribeLogGroupsCommand, ListTagsForResourceCommand } from "@aws-sdk/client-cloudwatch-logs";
import { DescribeSecurityGroupsCommand } from "@aws-sdk/client-ec2";
import { beforeAll, describe, expect, it } from "vitest";
import { defaultServiceSettings } from "#contract/services";
import type { DriverResource } from "../driver";
import { applicationProvisioner } from "./application";
import {
  applyUntilDone,
  contextFor,
  createTestNetwork,
  destroyUntilDone,
  testRegion,
  taggedWithService,
  testResource,
  expectListedSecrets,
} from "../../testing/aws-provisioning";
import { setUpMoto } from "../../testing/aws";

/**
 * moto starts no tasks: a service's deployment stays IN_PROGRESS unless MOTO_ECS_SERVICE_RUNNING says how many tasks
 * run, and an update keeps the deployment it was created with (see docs/decisions/028).
 */

// The tasks' execution role gets AmazonECSTaskExecutionRolePolicy, an AWS managed policy.
const moto = setUpMoto({
  region: testRegion,
  maxAttempts: 1,
  // ACM issues a certificate as soon as it is described again (it waits 60 s for its DNS records by default).
  settings: {
    MOTO_ECS_SERVICE_RUNNING: "10",
    MOTO_IAM_LOAD_MANAGED_POLICIES: "true",
    MOTO_ACM_VALIDATION_WAIT: "0",
  },
});
const { aws } = moto;
let network: Record<string, string>;

beforeAll(async () => {
  network = await createTestNetwork(moto);
}, 120_000);

function application(name: string, settings: Partial<DriverResource["settings"]> = {}) {
  return testResource("application", {
    name,
    config: { source: { kind: "image", image: "ghcr.io/acme/web:1.4.2" } },
    settings: {
      networking: { port: 8080, public: true, customDomain: "" },
      ...settings,
    },
  });
}

async function loadBalancers() {
  const elb = await aws.elbv2();
  return (await elb.send(new DescribeLoadBalancersCommand({}))).LoadBalancers ?? [];
}

async function rulesOf(loadBalancerArn: string) {
  const elb = await aws.elbv2();
  const [listener] =
    (await elb.send(new DescribeListenersCommand({ LoadBalancerArn: loadBalancerArn }))).Listeners ?? [];
  const rules =
    (await elb.send(new DescribeRulesCommand({ ListenerArn: listener?.ListenerArn }))).Rules ?? [];
  return rules.filter((rule) => !rule.IsDefault);
}

async function serviceOf(state: Record<string, string>) {
  const ecs = await aws.ecs();
  const answer = await ecs.send(
    new DescribeServicesCommand({ cluster: state.clusterArn, services: [state.serviceArn ?? ""] }),
  );
  return answer.services?.[0];
}

/** The service's scalable target and its CPU policy's target value, as Application Auto Scaling has them. */
async function autoScalingOf(state: Record<string, string>) {
  const client = await aws.applicationAutoScaling();
  const resourceId = `service/${state.clusterArn?.split("/").at(-1)}/${state.serviceArn?.split("/").at(-1)}`;
  const target = { ServiceNamespace: "ecs" as const, ScalableDimension: "ecs:service:DesiredCount" as const };
  const targets = await client.send(
    new DescribeScalableTargetsCommand({ ...target, ResourceIds: [resourceId] }),
  );
  const policies = await client.send(
    new DescribeScalingPoliciesCommand({ ...target, ResourceId: resourceId }),
  );
  return {
    bounds: targets.ScalableTargets?.map((scalable) => [scalable.MinCapacity, scalable.MaxCapacity]),
    cpuTargets: policies.ScalingPolicies?.map(
      (policy) => policy.TargetTrackingScalingPolicyConfiguration?.TargetValue,
    ),
  };
}

/**
 * What the tagging API lists with the service's tag, but deleted ECS services: AWS (and moto) keep them INACTIVE,
 * tags included, for a while after DeleteService.
 */
async function leftovers(serviceId: string) {
  const ecs = await aws.ecs();
  const tagged = await taggedWithService(aws, serviceId);
  const inactive = await Promise.all(
    tagged.map(async (arn) => {
      if (!arn.includes(":service/")) return false;
      const cluster = arn.split("/").at(-2);
      const answer = await ecs.send(new DescribeServicesCommand({ cluster, services: [arn] }));
      return answer.services?.[0]?.status === "INACTIVE";
    }),
  );
  return tagged.filter((_, index) => !inactive[index]);
}

async function taskDefinitionOf(arn: string | undefined) {
  const ecs = await aws.ecs();
  return (await ecs.send(new DescribeTaskDefinitionCommand({ taskDefinition: arn }))).taskDefinition;
}

/** The log group `name` with its retention and tags, or undefined. */
async function logGroupOf(name: string | undefined) {
  const logs = await aws.cloudWatchLogs();
  const { logGroups = [] } = await logs.send(new DescribeLogGroupsCommand({ logGroupNamePrefix: name }));
  const group = logGroups.find((candidate) => candidate.logGroupName === name);
  if (!group) return undefined;
  const { tags } = await logs.send(
    new ListTagsForResourceCommand({ resourceArn: group.arn?.replace(/:\*$/, "") }),
  );
  return { retentionInDays: group.retentionInDays, tags };
}

/** The security groups `ids` with their inbound rules, as [protocol, from port, to port, sources]. */
async function securityGroupsOf(ids: string[] | undefined) {
  const ec2 = await aws.ec2();
  const answer = await ec2.send(new DescribeSecurityGroupsCommand({ GroupIds: ids ?? [] }));
  return (answer.SecurityGroups ?? []).map((group) => ({
    id: group.GroupId,
    inbound: (group.IpPermissions ?? []).map((permission) => [
      permission.IpProtocol,
      permission.FromPort,
      permission.ToPort,
      [
        ...(permission.IpRanges ?? []).map((range) => range.CidrIp),
        ...(permission.Ipv6Ranges ?? []).map((range) => range.CidrIpv6),
        ...(permission.UserIdGroupPairs ?? []).map((pair) => pair.GroupId),
      ],
    ]),
  }));
}

/** The security groups of the VPC tagged with `environmentId`, by id. */
async function environmentGroups(environmentId: string) {
  const ec2 = await aws.ec2();
  const answer = await ec2.send(
    new DescribeSecurityGroupsCommand({
      Filters: [{ Name: "tag:cloud-console:environment", Values: [environmentId] }],
    }),
  );
  return (answer.SecurityGroups ?? []).map((group) => group.GroupId);
}

async function targetGroupOf(arn: string | undefined) {
  const elb = await aws.elbv2();
  return (await elb.send(new DescribeTargetGroupsCommand({ TargetGroupArns: [arn ?? ""] })))
    .TargetGroups?.[0];
}

describe("the application provisioner against moto", { timeout: 120_000 }, () => {
  it("runs applications on Fargate behind the environment's load balancers, changes them in place and deletes what they shared with the last one", async () => {
    const web = application("web");
    const webContext = contextFor(aws, web, network, { environmentId: "env-apps" });

    const created = await applyUntilDone(applicationProvisioner, webContext);
    expectListedSecrets(applicationProvisioner, webContext.resource, created.result.secrets);
    expect(created.progress).toEqual(["Starting the tasks"]);
    const { state } = created.result;
    const [balancer] = (await loadBalancers()).filter(
      (candidate) => candidate.LoadBalancerArn === state.loadBalancerArn,
    );
    expect(balancer).toMatchObject({
      Scheme: "internet-facing",
      Type: "application",
      State: { Code: "active" },
    });
    expect(balancer?.AvailabilityZones?.map((zone) => zone.SubnetId).sort()).toEqual(
      (network.publicSubnetIds ?? "").split(",").sort(),
    );
    // Served under its name, path unchanged (ALB rewrites no path): the address says so with its trailing slash.
    expect(created.result.endpoint).toBe(`http://${balancer?.DNSName}/web/`);

    const service = await serviceOf(state);
    expect(service).toMatchObject({
      status: "ACTIVE",
      launchType: "FARGATE",
      desiredCount: 1,
      taskDefinition: state.taskDefinitionArn,
      loadBalancers: [{ targetGroupArn: state.targetGroupArn, containerName: "app", containerPort: 8080 }],
      networkConfiguration: {
        awsvpcConfiguration: {
          subnets: (network.privateSubnetIds ?? "").split(","),
          securityGroups: expect.arrayContaining([network.securityGroupId]),
          assignPublicIp: "DISABLED",
        },
      },
    });
    expect(await taskDefinitionOf(state.taskDefinitionArn)).toMatchObject({
      cpu: "512",
      memory: "1024",
      networkMode: "awsvpc",
      requiresCompatibilities: ["FARGATE"],
      executionRoleArn: state.executionRoleArn,
      containerDefinitions: [
        {
          name: "app",
          image: "ghcr.io/acme/web:1.4.2",
          portMappings: [{ containerPort: 8080 }],
          // The container's output goes to the application's own log group, which the logs tab reads.
          logConfiguration: {
            logDriver: "awslogs",
            options: {
              "awslogs-group": state.logGroupName,
              "awslogs-region": aws.region,
              "awslogs-stream-prefix": "app",
            },
          },
        },
      ],
    });
    expect(state.logGroupName).toMatch(/^\/ecs\/web-/);
    expect(created.result.outputs.logGroups).toBe(state.logGroupName);
    expect(await logGroupOf(state.logGroupName)).toEqual({
      retentionInDays: 30,
      tags: expect.objectContaining({ "cloud-console:service": web.id }),
    });
    expect(await targetGroupOf(state.targetGroupArn)).toMatchObject({
      TargetType: "ip",
      VpcId: network.vpcId,
      HealthCheckPath: "/healthz",
      HealthCheckPort: "8080",
      HealthCheckIntervalSeconds: 30,
      HealthCheckTimeoutSeconds: 5,
      HealthyThresholdCount: 3,
    });
    expect(await rulesOf(state.loadBalancerArn ?? "")).toMatchObject([
      {
        Priority: "1",
        Conditions: [{ Field: "path-pattern", PathPatternConfig: { Values: ["/web", "/web/*"] } }],
        Actions: [{ Type: "forward", TargetGroupArn: state.targetGroupArn }],
      },
    ]);
    expect(await autoScalingOf(state)).toEqual({ bounds: [[1, 3]], cpuTargets: [70] });
    expect(await applicationProvisioner.observe(webContext)).toEqual({ state: "ok" });

    // A new image, variables, more CPU and memory, two tasks and another health check: all in place.
    const changed: DriverResource = {
      ...web,
      config: { ...web.config, source: { kind: "image", image: "ghcr.io/acme/web:1.5.0" } },
      settings: {
        ...web.settings,
        envvars: [
          { name: "LOG_LEVEL", value: "debug" },
          { name: "DATABASE_HOST", value: "orders.internal" },
        ],
        scaling: { minInstances: 2, maxInstances: 6, targetCpuPercent: 60 },
        hardware: { cpu: "1", memoryMb: 2048 },
        healthCheck: { ...web.settings.healthCheck, path: "/ready" },
      },
    };
    expect(applicationProvisioner.plan(web, changed)).toEqual({
      inPlace: [
        "config.source.image",
        "settings.envvars",
        "settings.hardware.cpu",
        "settings.hardware.memoryMb",
        "settings.healthCheck.path",
        "settings.scaling.maxInstances",
        "settings.scaling.minInstances",
        "settings.scaling.targetCpuPercent",
      ],
      replace: [],
    });
    const updated = await applyUntilDone(applicationProvisioner, { ...webContext, resource: changed, state });
    expect(updated.progress).toEqual(["Rolling out the change"]);
    expect(updated.result.state.taskDefinitionArn).toMatch(/:2$/);
    expect(await serviceOf(updated.result.state)).toMatchObject({
      serviceArn: state.serviceArn,
      desiredCount: 2,
      taskDefinition: updated.result.state.taskDefinitionArn,
    });
    expect(await taskDefinitionOf(updated.result.state.taskDefinitionArn)).toMatchObject({
      cpu: "1024",
      memory: "2048",
      containerDefinitions: [
        {
          image: "ghcr.io/acme/web:1.5.0",
          environment: [
            { name: "DATABASE_HOST", value: "orders.internal" },
            { name: "LOG_LEVEL", value: "debug" },
          ],
        },
      ],
    });
    expect((await targetGroupOf(state.targetGroupArn))?.HealthCheckPath).toBe("/ready");
    expect(await autoScalingOf(state)).toEqual({ bounds: [[2, 6]], cpuTargets: [60] });

    // A second application shares the cluster and the load balancer, routed by its custom domain.
    const api = application("api", {
      networking: { port: 3000, public: true, customDomain: "api.example.com" },
    });
    const apiContext = contextFor(aws, api, network, { environmentId: "env-apps" });
    const apiCreated = await applyUntilDone(applicationProvisioner, apiContext);
    expect(apiCreated.result.state.clusterArn).toBe(state.clusterArn);
    expect(apiCreated.result.state.loadBalancerArn).toBe(state.loadBalancerArn);
    expect(apiCreated.result.endpoint).toBe("http://api.example.com");
    expect(
      (await rulesOf(state.loadBalancerArn ?? "")).map((rule) => [
        rule.Priority,
        rule.Conditions?.[0]?.Field,
      ]),
    ).toEqual([
      ["1", "path-pattern"],
      ["2", "host-header"],
    ]);
    // By host, the domain's every path goes to the application as it came.
    expect((await rulesOf(state.loadBalancerArn ?? ""))[1]).toMatchObject({
      Conditions: [{ Field: "host-header", HostHeaderConfig: { Values: ["api.example.com"] } }],
      Actions: [{ Type: "forward", TargetGroupArn: apiCreated.result.state.targetGroupArn }],
    });

    // The first one goes: its own resources only.
    expect(await destroyUntilDone(applicationProvisioner, { ...webContext, resource: changed })).toEqual([
      "Deleting the ECS service",
    ]);
    expect(await leftovers(web.id)).toEqual([]);
    expect(await logGroupOf(state.logGroupName)).toBeUndefined();
    expect(await autoScalingOf(state)).toEqual({ bounds: [], cpuTargets: [] });
    expect(await rulesOf(state.loadBalancerArn ?? "")).toHaveLength(1);
    expect(await applicationProvisioner.observe(webContext)).toEqual({
      state: "missing",
      message: expect.stringContaining("no longer exists in AWS"),
    });

    // The second one becomes internal: it moves to the internal load balancer, and the public one, now unused, goes.
    const internal: DriverResource = {
      ...api,
      settings: {
        ...api.settings,
        networking: { ...api.settings.networking, public: false, customDomain: "" },
      },
    };
    expect(applicationProvisioner.plan(api, internal)).toEqual({
      inPlace: ["settings.networking.customDomain", "settings.networking.public"],
      replace: [],
    });
    const moved = await applyUntilDone(applicationProvisioner, {
      ...apiContext,
      resource: internal,
      state: apiCreated.result.state,
    });
    expect(moved.progress).toEqual(["Rolling out the change"]);
    const balancers = (await loadBalancers()).filter((candidate) =>
      [state.loadBalancerArn, moved.result.state.loadBalancerArn].includes(candidate.LoadBalancerArn),
    );
    expect(balancers.map((candidate) => candidate.Scheme)).toEqual(["internal"]);
    expect(balancers[0]?.AvailabilityZones?.map((zone) => zone.SubnetId).sort()).toEqual(
      (network.privateSubnetIds ?? "").split(",").sort(),
    );
    expect(moved.result.endpoint).toBe(`http://${balancers[0]?.DNSName}/api/`);
    expect((await serviceOf(moved.result.state))?.loadBalancers?.[0]?.targetGroupArn).toBe(
      moved.result.state.targetGroupArn,
    );
    // The internal load balancer lets in the environment's services only; the tasks now admit it alone, and the
    // public load balancer's group went with it.
    const internalGroup = balancers[0]?.SecurityGroups?.[0] ?? "";
    expect(await securityGroupsOf([internalGroup])).toEqual([
      {
        id: internalGroup,
        inbound: [
          ["tcp", 80, 80, [network.securityGroupId]],
          ["tcp", 443, 443, [network.securityGroupId]],
        ],
      },
    ]);
    const movedGroups =
      (await serviceOf(moved.result.state))?.networkConfiguration?.awsvpcConfiguration?.securityGroups ?? [];
    const movedTasksGroup = movedGroups.find((group) => group !== network.securityGroupId);
    expect((await securityGroupsOf([movedTasksGroup ?? ""]))[0]?.inbound).toEqual([
      ["tcp", 3000, 3000, [internalGroup]],
      ["tcp", 8080, 8080, [internalGroup]],
    ]);
    expect((await environmentGroups("env-apps")).sort()).toEqual([internalGroup, movedTasksGroup].sort());
    expect((await taggedWithService(aws, api.id)).filter((arn) => arn.includes(":targetgroup/"))).toEqual([
      moved.result.state.targetGroupArn,
    ]);

    // The last one goes: the environment's cluster and load balancer go with it.
    await destroyUntilDone(applicationProvisioner, {
      ...apiContext,
      resource: internal,
      state: moved.result.state,
    });
    expect(await leftovers(api.id)).toEqual([]);
    expect(
      (await loadBalancers()).filter(
        (candidate) => candidate.LoadBalancerArn === moved.result.state.loadBalancerArn,
      ),
    ).toEqual([]);
    const clusters = await (
      await aws.ecs()
    ).send(new DescribeClustersCommand({ clusters: [state.clusterArn ?? ""] }));
    expect(clusters.clusters?.filter((cluster) => cluster.status === "ACTIVE")).toEqual([]);
    expect(await environmentGroups("env-apps")).toEqual([]);
  });

  it("opens the internet-facing load balancer on its listener ports to the internet and the tasks only to the load balancer, and deletes both groups with the last application", async () => {
    const shop = application("shop", {
      healthCheck: { ...defaultServiceSettings.healthCheck, port: 9090 },
    });
    const context = contextFor(aws, shop, network, { environmentId: "env-open" });
    const { state } = (await applyUntilDone(applicationProvisioner, context)).result;

    const [balancer] = (await loadBalancers()).filter(
      (candidate) => candidate.LoadBalancerArn === state.loadBalancerArn,
    );
    // Its own group only: the network's group lets the environment's services reach each other, not the internet.
    expect(balancer?.SecurityGroups).toHaveLength(1);
    expect(balancer?.SecurityGroups).not.toContain(network.securityGroupId);
    const balancerGroup = balancer?.SecurityGroups?.[0] ?? "";
    expect(await securityGroupsOf([balancerGroup])).toEqual([
      {
        id: balancerGroup,
        inbound: [
          ["tcp", 80, 80, ["0.0.0.0/0", "::/0"]],
          ["tcp", 443, 443, ["0.0.0.0/0", "::/0"]],
        ],
      },
    ]);

    // The tasks: the network's group (to reach the environment's databases) and their own, open to the load
    // balancer alone, on the container's port and the health check's.
    const groups = (await serviceOf(state))?.networkConfiguration?.awsvpcConfiguration?.securityGroups ?? [];
    expect(groups).toHaveLength(2);
    expect(groups).toContain(network.securityGroupId);
    const tasksGroup = groups.find((group) => group !== network.securityGroupId) ?? "";
    expect((await securityGroupsOf([tasksGroup]))[0]?.inbound).toEqual(
      expect.arrayContaining([
        ["tcp", 8080, 8080, [balancerGroup]],
        ["tcp", 9090, 9090, [balancerGroup]],
      ]),
    );
    expect((await securityGroupsOf([tasksGroup]))[0]?.inbound).toHaveLength(2);

    // Repeating the deployment changes nothing.
    const again = await applyUntilDone(applicationProvisioner, { ...context, state });
    expect(again.progress).toEqual([]);
    expect((await environmentGroups("env-open")).sort()).toEqual([balancerGroup, tasksGroup].sort());

    // As deployed before the load balancer had its own group (behind the network's, tasks too): the next
    // deployment puts each behind its own again.
    await (
      await aws.elbv2()
    ).send(
      new SetSecurityGroupsCommand({
        LoadBalancerArn: state.loadBalancerArn,
        SecurityGroups: [network.securityGroupId ?? ""],
      }),
    );
    await (
      await aws.ecs()
    ).send(
      new UpdateServiceCommand({
        cluster: state.clusterArn,
        service: state.serviceArn,
        networkConfiguration: {
          awsvpcConfiguration: {
            subnets: (network.privateSubnetIds ?? "").split(","),
            securityGroups: [network.securityGroupId ?? ""],
          },
        },
      }),
    );
    const repaired = await applyUntilDone(applicationProvisioner, { ...context, state });
    expect(repaired.progress).toEqual(["Rolling out the change"]);
    expect(
      (await loadBalancers()).find((candidate) => candidate.LoadBalancerArn === state.loadBalancerArn)
        ?.SecurityGroups,
    ).toEqual([balancerGroup]);
    expect(
      (await serviceOf(state))?.networkConfiguration?.awsvpcConfiguration?.securityGroups?.sort(),
    ).toEqual(groups.sort());

    await destroyUntilDone(applicationProvisioner, { ...context, state });
    expect(await environmentGroups("env-open")).toEqual([]);
  });

  it("serves an application with a domain over HTTPS with its certificate, redirects HTTP there, and takes the certificate off with it", async () => {
    const acm = await aws.acm();
    const requestCertificate = async (domain: string) => {
      const { CertificateArn = "" } = await acm.send(
        new RequestCertificateCommand({ DomainName: domain, ValidationMethod: "DNS" }),
      );
      // Described once, moto's certificate is issued (MOTO_ACM_VALIDATION_WAIT).
      await acm.send(new DescribeCertificateCommand({ CertificateArn }));
      return CertificateArn;
    };
    const shopCertificate = await requestCertificate("shop.example.com");
    const apiCertificate = await requestCertificate("api.example.com");
    const elb = await aws.elbv2();
    const listenersOf = async (loadBalancerArn: string | undefined) =>
      (await elb.send(new DescribeListenersCommand({ LoadBalancerArn: loadBalancerArn }))).Listeners ?? [];
    const routesOf = async (listenerArn: string | undefined) =>
      ((await elb.send(new DescribeRulesCommand({ ListenerArn: listenerArn }))).Rules ?? [])
        .filter((rule) => !rule.IsDefault)
        .map((rule) => ({
          host: rule.Conditions?.[0]?.HostHeaderConfig?.Values,
          action: rule.Actions?.[0]?.Type,
          to: rule.Actions?.[0]?.TargetGroupArn ?? rule.Actions?.[0]?.RedirectConfig,
        }));
    const certificatesOf = async (listenerArn: string | undefined) =>
      (
        await elb.send(new DescribeListenerCertificatesCommand({ ListenerArn: listenerArn }))
      ).Certificates?.map((certificate) => [certificate.CertificateArn, certificate.IsDefault]);

    const shop = application("shop", {
      networking: { port: 8080, public: true, customDomain: "shop.example.com" },
    });
    const shopContext = contextFor(aws, shop, network, { environmentId: "env-https" });
    // Until its TLS certificate service is deployed, the deployment waits for it and creates nothing.
    expect(
      await applicationProvisioner.apply({ ...shopContext, certificate: { name: "shop-cert", arn: null } }),
    ).toMatchObject({ done: false, progress: "Waiting for the TLS certificate shop-cert to be deployed" });
    expect(await taggedWithService(aws, shop.id)).toEqual([]);

    const shopDeployed = await applyUntilDone(applicationProvisioner, {
      ...shopContext,
      certificate: { name: "shop-cert", arn: shopCertificate },
    });
    const { state } = shopDeployed.result;
    expect(shopDeployed.result.endpoint).toBe("https://shop.example.com");
    const listeners = await listenersOf(state.loadBalancerArn);
    const https = listeners.find((listener) => listener.Port === 443);
    const http = listeners.find((listener) => listener.Port === 80);
    expect(https).toMatchObject({
      Protocol: "HTTPS",
      SslPolicy: "ELBSecurityPolicy-TLS13-1-2-2021-06",
      Certificates: [{ CertificateArn: shopCertificate }],
    });
    expect(await routesOf(https?.ListenerArn)).toEqual([
      { host: ["shop.example.com"], action: "forward", to: state.targetGroupArn },
    ]);
    expect(await routesOf(http?.ListenerArn)).toEqual([
      {
        host: ["shop.example.com"],
        action: "redirect",
        to: expect.objectContaining({ Protocol: "HTTPS", Port: "443", StatusCode: "HTTP_301" }),
      },
    ]);
    const [balancer] = (await loadBalancers()).filter(
      (candidate) => candidate.LoadBalancerArn === state.loadBalancerArn,
    );
    expect((await securityGroupsOf(balancer?.SecurityGroups))[0]?.inbound).toEqual([
      ["tcp", 80, 80, ["0.0.0.0/0", "::/0"]],
      ["tcp", 443, 443, ["0.0.0.0/0", "::/0"]],
    ]);
    // Repeating the deployment changes nothing.
    const again = await applyUntilDone(applicationProvisioner, {
      ...shopContext,
      state,
      certificate: { name: "shop-cert", arn: shopCertificate },
    });
    expect(again.progress).toEqual([]);
    expect(await routesOf(https?.ListenerArn)).toHaveLength(1);

    // A second domain on the same load balancer: its certificate joins the listener (SNI).
    const api = application("api", {
      networking: { port: 3000, public: true, customDomain: "api.example.com" },
    });
    const apiContext = {
      ...contextFor(aws, api, network, { environmentId: "env-https" }),
      certificate: { name: "api-cert", arn: apiCertificate },
    };
    const apiDeployed = await applyUntilDone(applicationProvisioner, apiContext);
    expect(apiDeployed.result.state.loadBalancerArn).toBe(state.loadBalancerArn);
    expect(apiDeployed.result.endpoint).toBe("https://api.example.com");
    expect(await certificatesOf(https?.ListenerArn)).toEqual([
      [shopCertificate, true],
      [apiCertificate, false],
    ]);

    // The first one goes: its certificate leaves the listener (ACM could not delete it otherwise).
    await destroyUntilDone(applicationProvisioner, { ...shopContext, state });
    expect(await certificatesOf(https?.ListenerArn)).toEqual([[apiCertificate, true]]);
    expect((await routesOf(https?.ListenerArn)).map((route) => route.host)).toEqual([["api.example.com"]]);
    expect((await routesOf(http?.ListenerArn)).map((route) => route.host)).toEqual([["api.example.com"]]);

    // The second drops its domain: served over HTTP under its name again, and the HTTPS listener goes.
    const plain: DriverResource = {
      ...api,
      settings: { ...api.settings, networking: { ...api.settings.networking, customDomain: "" } },
    };
    const { certificate: _dropped, ...plainContext } = apiContext;
    const replain = await applyUntilDone(applicationProvisioner, {
      ...plainContext,
      resource: plain,
      state: apiDeployed.result.state,
    });
    expect(replain.result.endpoint).toBe(`http://${balancer?.DNSName}/api/`);
    expect((await listenersOf(state.loadBalancerArn)).map((listener) => listener.Port)).toEqual([80]);
    expect(await routesOf(http?.ListenerArn)).toEqual([
      { host: undefined, action: "forward", to: apiDeployed.result.state.targetGroupArn },
    ]);

    await destroyUntilDone(applicationProvisioner, {
      ...plainContext,
      resource: plain,
      state: replain.result.state,
    });
    expect(await environmentGroups("env-https")).toEqual([]);
  });

  it("deploys two applications' first deployments at once: both complete, behind one load balancer group", async () => {
    const contexts = ["left", "right"].map((name) =>
      contextFor(aws, application(name), network, { environmentId: "env-race" }),
    );
    // Both look for the environment's load balancer group before either has created it.
    const [left, right] = await Promise.all(
      contexts.map((context) => applyUntilDone(applicationProvisioner, context)),
    );
    // (AWS answers the same load balancer to both CreateLoadBalancer calls of one name; moto makes a second one.)
    const balancerGroups = (await loadBalancers())
      .filter((candidate) =>
        [left?.result.state.loadBalancerArn, right?.result.state.loadBalancerArn].includes(
          candidate.LoadBalancerArn,
        ),
      )
      .flatMap((balancer) => balancer.SecurityGroups ?? []);
    expect(new Set(balancerGroups).size).toBe(1);
    // Each application's tasks group, and the one load balancer group: nothing else.
    expect(await environmentGroups("env-race")).toHaveLength(3);

    for (const context of contexts) await destroyUntilDone(applicationProvisioner, context);
    expect(await environmentGroups("env-race")).toEqual([]);
  });

  it("creates nothing twice when a step is repeated from a stale state", async () => {
    const worker = application("worker");
    const context = contextFor(aws, worker, network, { environmentId: "env-stale" });
    await applicationProvisioner.apply(context);
    await applicationProvisioner.apply(context);
    const done = await applyUntilDone(applicationProvisioner, context);
    expect(done.result.state.taskDefinitionArn).toMatch(/:1$/);
    const revisions = await (
      await aws.ecs()
    ).send(
      new ListTaskDefinitionsCommand({
        familyPrefix: done.result.state.taskDefinitionArn?.split("/")[1]?.split(":")[0],
      }),
    );
    expect(revisions.taskDefinitionArns).toHaveLength(1);
    expect(await rulesOf(done.result.state.loadBalancerArn ?? "")).toHaveLength(1);
    const tagged = await taggedWithService(aws, worker.id);
    expect(tagged.map((arn) => arn.split(":")[5]?.split("/")[0]).sort()).toEqual([
      "log-group",
      "security-group",
      "service",
      "targetgroup",
      "task-definition",
    ]);
    expect(
      (await loadBalancers()).filter(
        (candidate) => candidate.LoadBalancerName === done.result.state.loadBalancerArn?.split("/")[2],
      ),
    ).toHaveLength(1);

    await destroyUntilDone(applicationProvisioner, context);
    expect(await leftovers(worker.id)).toEqual([]);
  });

  it("surfaces AWS's error code and message when a call fails", async () => {
    const broken = application("broken");
    const gone = { ...network, publicSubnetIds: "subnet-0deadbeef0000000a,subnet-0deadbeef0000000b" };
    await expect(
      applicationProvisioner.apply(contextFor(aws, broken, gone, { environmentId: "env-broken" })),
    ).rejects.toMatchObject({
      name: "InvalidSubnetID.NotFound",
      message: expect.stringContaining("subnet-0deadbeef0000000a"),
    });
    await destroyUntilDone(
      applicationProvisioner,
      contextFor(aws, broken, gone, { environmentId: "env-broken" }),
    );
    expect(await taggedWithService(aws, broken.id)).toEqual([]);
  });
});
