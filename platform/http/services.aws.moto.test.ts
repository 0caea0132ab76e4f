import { ListQueuesCommand } from "@aws-sdk/client-sqs";
import { afterAll, beforeAll, expect, it } from "vitest";
import {
  resourceResponseSchema,
  serviceErrorMessages,
  servicePaths,
  serviceUnitsSchema,
  type Resource,
} from "#contract/services";
import { defaultServiceConfigs } from "#contract/service-configs";
import { setUpMoto } from "../testing/aws";
import { defaultTerraformConfig } from "../lib/config";
import { openTestApi, type TestApi, type TestMember } from "../testing/http-harness";

/*
 * The services API over an environment in an AWS connection (moto_server), with the platform's own provisioners:
 * a queue is deployed in SQS with its real URL as endpoint, a change says in the history whether it lands in
 * place, and DELETE answers 202 while AWS tears the queue down, after which the service is gone and nothing is left
 * in SQS.
 */

const region = "us-west-2";
const moto = setUpMoto({ region });
let api: TestApi;
beforeAll(async () => {
  api = await openTestApi({ terraform: { ...defaultTerraformConfig, awsEndpoint: moto.endpoint } });
});
afterAll(() => api?.close());

let member: TestMember;
let tenantId: string;
let environmentId: string;
let environmentName: string;
beforeAll(async () => {
  member = await api.createMember({ role: "admin" });
  tenantId = member.organization.tenantId;
  const environment = await api.createAwsEnvironment(member, region);
  environmentId = environment.id;
  environmentName = environment.name;
});

const call = (method: string, path: string, json?: unknown) =>
  api.call(method, path, { token: member.user.token, json });

async function get(id: string): Promise<Resource> {
  const response = await call("GET", servicePaths.one(tenantId, environmentId, id));
  expect(response.status).toBe(200);
  return resourceResponseSchema.parse(await response.json()).resource;
}

async function queues(): Promise<string[]> {
  const { QueueUrls = [] } = await (
    await moto.aws.sqs()
  ).send(new ListQueuesCommand({ QueueNamePrefix: environmentName }));
  return QueueUrls;
}

it("deploys a queue in AWS, says how a change lands, and deletes it once AWS tore it down", async () => {
  const response = await call("POST", servicePaths.list(tenantId, environmentId), {
    serviceType: "queue",
    name: "orders",
    config: defaultServiceConfigs.queue,
    launch: true,
  });
  expect(response.status).toBe(201);
  const { id } = resourceResponseSchema.parse(await response.json()).resource;
  await api.engine.runner.runUntilIdle();
  // The queue and its dead-letter queue.
  const created = await queues();
  expect(created.map((url) => url.slice(url.lastIndexOf("/") + 1)).sort()).toEqual([
    `${environmentName}-orders`,
    `${environmentName}-orders-dlq`,
  ]);
  const queueUrl = created.find((url) => url.endsWith(`${environmentName}-orders`));
  const deployed = await get(id);
  expect(deployed).toMatchObject({ stage: "STAGE_COMPLETED", endpoint: queueUrl });
  // An SQS queue has no secret (access goes through IAM): nothing is listed that would never have a value.
  expect(deployed.secretAttributes).toEqual([]);
  const attribute = await call("GET", servicePaths.attribute(tenantId, environmentId, id, "accessKeyId"));
  expect(attribute.status).toBe(404);
  expect(((await attribute.json()) as { message: string }).message).toBe(
    serviceErrorMessages.attributeNotFound,
  );

  const changed = await call("PUT", servicePaths.one(tenantId, environmentId, id), {
    version: deployed.version,
    config: { ...defaultServiceConfigs.queue, visibilityTimeoutSeconds: 90, messageRetentionDays: 7 },
  });
  expect(changed.status).toBe(200);
  const relaunched = resourceResponseSchema.parse(await changed.json()).resource;
  expect(relaunched.history[0]).toMatchObject({
    action: "Relaunch",
    message: "Updates in place: Message retention (days), Visibility timeout (seconds).",
  });
  // Entries without a cloud's word have none.
  expect(relaunched.history[1]).toMatchObject({ action: "Create", message: null });
  await api.engine.runner.runUntilIdle();
  expect(await get(id)).toMatchObject({ stage: "STAGE_COMPLETED", endpoint: queueUrl });

  const deleted = await call("DELETE", servicePaths.one(tenantId, environmentId, id));
  expect(deleted.status).toBe(202);
  const deleting = {
    stage: "STAGE_IN_PROGRESS",
    message: "Deleting: tearing down what the service created in its cloud.",
  };
  expect(resourceResponseSchema.parse(await deleted.json()).resource).toMatchObject(deleting);
  expect(await get(id)).toMatchObject(deleting);
  const again = await call("DELETE", servicePaths.one(tenantId, environmentId, id));
  expect(again.status).toBe(409);
  expect(((await again.json()) as { message: string }).message).toBe(serviceErrorMessages.deploymentRunning);

  await api.engine.runner.runUntilIdle();
  expect((await call("GET", servicePaths.one(tenantId, environmentId, id))).status).toBe(404);
  expect(await queues()).toEqual([]);
});

it("deletes a service that never reached AWS at once", async () => {
  const response = await call("POST", servicePaths.list(tenantId, environmentId), {
    serviceType: "queue",
    name: "drafted",
    config: defaultServiceConfigs.queue,
    launch: false,
  });
  const { id } = resourceResponseSchema.parse(await response.json()).resource;
  expect((await call("DELETE", servicePaths.one(tenantId, environmentId, id))).status).toBe(204);
  expect((await call("GET", servicePaths.one(tenantId, environmentId, id))).status).toBe(404);
});

it("answers no units for a queue in AWS, and does not call them simulated", async () => {
  const response = await call("POST", servicePaths.list(tenantId, environmentId), {
    serviceType: "queue",
    name: "units-queue",
    config: defaultServiceConfigs.queue,
    launch: true,
  });
  const { id } = resourceResponseSchema.parse(await response.json()).resource;
  await api.engine.runner.runUntilIdle();
  expect((await get(id)).stage).toBe("STAGE_COMPLETED");
  // The units of the types that have them are asked of AWS: platform/cloud/aws/units.moto.test.ts.
  const units = await call("GET", servicePaths.units(tenantId, environmentId, id));
  expect(units.status).toBe(200);
  expect(serviceUnitsSchema.parse(await units.json())).toEqual({ simulated: false, units: [] });
  // The cloud's answer is tagged by what it says: the next poll holding it is 304 while AWS reports the same.
  const etag = units.headers.get("ETag");
  expect(etag).toBeTruthy();
  const again = await api.call("GET", servicePaths.units(tenantId, environmentId, id), {
    token: member.user.token,
    headers: { "If-None-Match": etag ?? "" },
  });
  expect(again.status).toBe(304);
  expect(await again.text()).toBe("");
});
