import { RunInstancesCommand } from "@aws-sdk/client-ec2";
import { RegisterTaskDefinitionCommand, RunTaskCommand } from "@aws-sdk/client-ecs";
import { beforeAll, describe, expect, it } from "vitest";
import { motoCredentials } from "../../../tests/setup/moto-server";
import type { DeployContext, DriverResource } from "../driver";
import { createAwsDriver } from "./driver";
import { awsProvisioners } from "./provisioners";
import { applicationProvisioner } from "./application";
import { cacheProvisioner } from "./cache";
import { databaseProvisioner } from "./database";
import { kubernetesProvisioner } from "./kubernetes";
import { queueProvisioner } from "./queue";
import type { Provisioner } from "./provisioner";
import {
  applyUntilDone,
  contextFor,
  createTestNetwork,
  testRegion,
  testResource,
} from "../../testing/aws-provisioning";
import { setUpMoto } from "../../testing/aws";

/**
 * The units the overview lists are those AWS reports: an application's ECS tasks, a database's RDS instance, and
 * nothing for a queue. moto starts no tasks for an ECS service, so the test starts one in the service's group as
 * ECS does (`service:<name>`), beside a task of another group that is not the service's.
 */

const moto = setUpMoto({
  region: testRegion,
  maxAttempts: 1,
  settings: { MOTO_ECS_SERVICE_RUNNING: "1", MOTO_IAM_LOAD_MANAGED_POLICIES: "true" },
});
const { aws } = moto;
const environmentId = "env-units";
let network: Record<string, string>;

beforeAll(async () => {
  network = await createTestNetwork(moto);
}, 120_000);

const driver = createAwsDriver({ provisioners: awsProvisioners }).forAccount({
  key: "moto",
  confirm: async (region) => ({ region, credentials: motoCredentials, endpoint: moto.endpoint }),
});

/** Deploys `resource` with its provisioner, then asks the AWS driver for its units as the overview does. */
async function deployedUnits(provisioner: Provisioner, resource: DriverResource) {
  const deployed = await applyUntilDone(provisioner, contextFor(aws, resource, network, { environmentId }));
  const context: DeployContext = {
    resource,
    organizationId: "org-1",
    environmentId,
    state: deployed.result.state,
    network,
    step: 0,
    progress: null,
    change: "deploy",
    podNames: [],
    secretsSealed: true,
    now: new Date(),
  };
  return { state: deployed.result.state, units: () => driver.units?.(context) };
}

describe("the units AWS reports", { timeout: 120_000 }, () => {
  it("lists an application's ECS tasks, and only its service's", async () => {
    const resource = testResource("application", {
      name: "web",
      config: { source: { kind: "image", image: "ghcr.io/acme/web:1.4.2" } },
      settings: { networking: { port: 8080, public: true, customDomain: "" } },
    });
    const { state, units } = await deployedUnits(applicationProvisioner, resource);
    expect(await units()).toEqual([]);

    const ecs = await aws.ecs();
    const serviceName = state.serviceArn?.split("/").at(-1) ?? "";
    // moto cannot start a Fargate definition without container-level memory: a definition it can start.
    const { taskDefinition } = await ecs.send(
      new RegisterTaskDefinitionCommand({
        family: "startable-in-moto",
        containerDefinitions: [{ name: "web", image: "ghcr.io/acme/web:1.4.2", memory: 512 }],
      }),
    );
    const start = (group?: string) =>
      ecs.send(
        new RunTaskCommand({
          cluster: state.clusterArn,
          taskDefinition: taskDefinition?.taskDefinitionArn,
          launchType: "FARGATE",
          group,
        }),
      );
    const { tasks: [task] = [] } = await start(`service:${serviceName}`);
    // A task of the same cluster that is not the service's (a one-off job).
    await start();

    // ECS's own word for where the task is (moto moves it on by itself: RUNNING, then DEACTIVATING, ...).
    expect(await units()).toEqual([
      { name: task?.taskArn?.split("/").at(-1), status: expect.stringMatching(/^[A-Z]+$/) },
    ]);
  });

  it("lists a database's RDS instance with its status", async () => {
    const resource = testResource("database", { name: "orders" });
    const { units } = await deployedUnits(databaseProvisioner, resource);
    expect(await units()).toEqual([
      { name: expect.stringMatching(/^orders-[0-9a-f]{8}$/), status: "available" },
    ]);
  });

  it("lists a Redis cache's nodes, one per member cluster of its replication group", async () => {
    const resource = testResource("cache", { name: "sessions", config: { engine: "redis", nodes: 2 } });
    const { units } = await deployedUnits(cacheProvisioner, resource);
    const listed = (await units()) ?? [];
    expect(listed).toHaveLength(2);
    for (const unit of listed) {
      expect(unit).toEqual({
        name: expect.stringMatching(/^sessions-[0-9a-f]{8}-00\d$/),
        status: "available",
      });
    }
  });

  it("lists a cluster's nodes: the EC2 instances EKS tags with its node group", async () => {
    const resource = testResource("kubernetes", { name: "apps" });
    const { state, units } = await deployedUnits(kubernetesProvisioner, resource);
    expect(await units()).toEqual([]);
    const cluster = state.clusterArn?.split("/").at(-1) ?? "";
    const nodegroup = state.nodegroupArn?.split("/").at(-2) ?? "";
    // moto's node groups start no instances: one as EKS starts it, with its tags, and one of another group.
    const start = (group: string) =>
      aws.ec2().then((ec2) =>
        ec2.send(
          new RunInstancesCommand({
            ImageId: "ami-12c6146b",
            MinCount: 1,
            MaxCount: 1,
            TagSpecifications: [
              {
                ResourceType: "instance",
                Tags: [
                  { Key: "eks:cluster-name", Value: cluster },
                  { Key: "eks:nodegroup-name", Value: group },
                ],
              },
            ],
          }),
        ),
      );
    const { Instances: [node] = [] } = await start(nodegroup);
    await start("someone-elses");
    expect(await units()).toEqual([{ name: node?.PrivateDnsName, status: "running" }]);
  });

  it("lists nothing for a queue: SQS runs it on nothing of the account's", async () => {
    const resource = testResource("queue", { name: "jobs" });
    const { units } = await deployedUnits(queueProvisioner, resource);
    expect(await units()).toEqual([]);
  });
});
