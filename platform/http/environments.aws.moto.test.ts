import { GetResourcesCommand } from "@aws-sdk/client-resource-groups-tagging-api";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import {
  environmentErrorMessages,
  environmentPaths,
  environmentResponseSchema,
} from "#contract/environments";
import { resourceResponseSchema, servicePaths } from "#contract/services";
import { defaultServiceConfigs } from "#contract/service-configs";
import { MOTO_ACCOUNT_ID, motoCredentials } from "../../tests/setup/moto-server";
import { setUpMoto } from "../testing/aws";
import { defaultTerraformConfig } from "../lib/config";
import { environments } from "../db/schema";
import { TAG_ENVIRONMENT, type Provisioner } from "../cloud/aws/provisioner";
import { awsProvisioners } from "../cloud/aws/provisioners";
import { queueProvisioner } from "../cloud/aws/queue";
import { insertConnection } from "../testing/notification-connections";
import { openTestApi, type TestApi, type TestMember } from "../testing/http-harness";

/*
 * DELETE of an environment in an AWS connection (moto_server): it answers 202 and tears its services down in AWS
 * first, the queue before the network it runs in, then deletes the environment, leaving nothing tagged with it. A
 * teardown AWS refuses leaves the environment failed, saying what could not be deleted; DELETE again finishes it.
 */

const region = "us-west-2";
const moto = setUpMoto({ region });
/** The order teardowns began in, by service type; a queue's teardown can be made to fail. */
const destroyed: string[] = [];
let refuseQueueTeardown = false;
const watched = (type: string, provisioner: Provisioner): Provisioner => ({
  ...provisioner,
  async destroy(context) {
    if (context.state && !destroyed.includes(context.resource.id)) destroyed.push(context.resource.id);
    if (type === "queue" && refuseQueueTeardown) {
      throw Object.assign(new Error("User is not authorized to perform: sqs:DeleteQueue"), {
        name: "AccessDenied",
        $fault: "client",
        $metadata: { httpStatusCode: 403 },
      });
    }
    return provisioner.destroy(context);
  },
});
let api: TestApi;
beforeAll(async () => {
  api = await openTestApi(
    { terraform: { ...defaultTerraformConfig, awsEndpoint: moto.endpoint } },
    {
      provisioners: {
        ...awsProvisioners,
        network: watched("network", awsProvisioners.network as Provisioner),
        queue: watched("queue", queueProvisioner),
      },
    },
  );
});
afterAll(() => api?.close());

let member: TestMember;
let tenantId: string;
let connectionId: string;
beforeAll(async () => {
  member = await api.createMember({ role: "admin" });
  tenantId = member.organization.tenantId;
  const connection = await insertConnection(api.db, api.secrets, {
    organizationId: member.organization.organizationId,
    kind: "AWS",
    method: "keys",
    fields: { ACCOUNT_ID: MOTO_ACCOUNT_ID, ACCESS_KEY_ID: motoCredentials.accessKeyId, REGION: region },
    secretFields: { SECRET_ACCESS_KEY: motoCredentials.secretAccessKey },
  });
  connectionId = connection.id;
}, 60_000);

const call = (method: string, path: string, json?: unknown) =>
  api.call(method, path, { token: member.user.token, json });

/** An environment in the AWS connection with a deployed network and a queue in it. */
async function environmentWithNetworkAndQueue() {
  const environment = await api.createEnvironment(tenantId);
  await api.db
    .update(environments)
    .set({ region, cloudConnectionId: connectionId })
    .where(eq(environments.id, environment.id));
  const ids: Record<string, string> = {};
  for (const serviceType of ["network", "queue"] as const) {
    const response = await call("POST", servicePaths.list(tenantId, environment.id), {
      serviceType,
      name: serviceType === "network" ? "network" : "orders",
      config: defaultServiceConfigs[serviceType],
      launch: true,
    });
    expect(response.status).toBe(201);
    ids[serviceType] = resourceResponseSchema.parse(await response.json()).resource.id;
    await api.engine.runner.runUntilIdle();
  }
  expect(await tagged(environment.id)).not.toEqual([]);
  return { environment, ids };
}

/** What the Resource Groups Tagging API finds tagged with the environment's id. */
async function tagged(environmentId: string): Promise<string[]> {
  const { ResourceTagMappingList = [] } = await (
    await moto.aws.resourceGroupsTagging()
  ).send(new GetResourcesCommand({ TagFilters: [{ Key: TAG_ENVIRONMENT, Values: [environmentId] }] }));
  // AWS (and moto) keep showing a deleted NAT gateway for a while.
  return ResourceTagMappingList.map((mapping) => mapping.ResourceARN ?? "").filter(
    (arn) => !arn.includes(":natgateway/"),
  );
}

async function environmentOf(id: string) {
  const response = await call("GET", environmentPaths.one(tenantId, id));
  return { status: response.status, body: response.status === 200 ? await response.json() : null };
}

it(
  "tears the services down in AWS, the network last, then deletes the environment",
  { timeout: 120_000 },
  async () => {
    const { environment, ids } = await environmentWithNetworkAndQueue();
    destroyed.length = 0;

    const response = await call("DELETE", environmentPaths.one(tenantId, environment.id));
    expect(response.status).toBe(202);
    const { environment: deleting } = environmentResponseSchema.parse(await response.json());
    expect(deleting).toMatchObject({
      stage: "STAGE_IN_PROGRESS",
      deletion: {
        stage: "STAGE_IN_PROGRESS",
        message: "Deleting: tearing down its services in its cloud, then the environment.",
      },
    });
    // No new work in an environment being deleted, and no second deletion.
    const again = await call("DELETE", environmentPaths.one(tenantId, environment.id));
    expect(again.status).toBe(409);
    const added = await call("POST", servicePaths.list(tenantId, environment.id), {
      serviceType: "queue",
      name: "late",
      config: defaultServiceConfigs.queue,
      launch: true,
    });
    expect(added.status).toBe(409);
    expect(((await added.json()) as { message: string }).message).toBe(environmentErrorMessages.beingDeleted);

    await api.engine.runner.runUntilIdle();
    expect(destroyed.filter((id) => id === ids.queue || id === ids.network)).toEqual([
      ids.queue,
      ids.network,
    ]);
    expect(await tagged(environment.id)).toEqual([]);
    expect((await environmentOf(environment.id)).status).toBe(404);
  },
);

it(
  "leaves the environment failed with what could not be deleted, and finishes on a second DELETE",
  { timeout: 120_000 },
  async () => {
    const { environment, ids } = await environmentWithNetworkAndQueue();
    refuseQueueTeardown = true;
    destroyed.length = 0;
    expect((await call("DELETE", environmentPaths.one(tenantId, environment.id))).status).toBe(202);
    await api.engine.runner.runUntilIdle();

    // The network was not touched: the queue in it is still there.
    expect(destroyed).toEqual([ids.queue]);
    const failed = environmentResponseSchema.parse((await environmentOf(environment.id)).body).environment;
    expect(failed).toMatchObject({
      stage: "STAGE_FAILED",
      deletion: {
        stage: "STAGE_FAILED",
        message:
          "Could not delete a service in the cloud (orders: AccessDenied: User is not authorized to perform: " +
          "sqs:DeleteQueue). Delete the environment again to retry.",
      },
    });
    expect(await tagged(environment.id)).not.toEqual([]);

    refuseQueueTeardown = false;
    expect((await call("DELETE", environmentPaths.one(tenantId, environment.id))).status).toBe(202);
    await api.engine.runner.runUntilIdle();
    expect(await tagged(environment.id)).toEqual([]);
    expect((await environmentOf(environment.id)).status).toBe(404);
  },
);

it("deletes an environment whose services never reached AWS at once", async () => {
  const environment = await api.createEnvironment(tenantId);
  await api.db
    .update(environments)
    .set({ region, cloudConnectionId: connectionId })
    .where(eq(environments.id, environment.id));
  await call("POST", servicePaths.list(tenantId, environment.id), {
    serviceType: "queue",
    name: "drafted",
    config: defaultServiceConfigs.queue,
    launch: false,
  });
  expect((await call("DELETE", environmentPaths.one(tenantId, environment.id))).status).toBe(204);
  expect((await environmentOf(environment.id)).status).toBe(404);
});
