import { afterAll, beforeAll, expect, it } from "vitest";
import { defaultApplicationConfig } from "#contract/application-config";
import { certificateResponseSchema, resourceResponseSchema, servicePaths } from "#contract/services";
import { defaultServiceConfigs } from "#contract/service-configs";
import { setUpMoto } from "../testing/aws";
import { defaultTerraformConfig } from "../lib/config";
import { openTestApi, type TestApi, type TestMember } from "../testing/http-harness";

/*
 * An application with a domain and a TLS certificate, deployed through the API into an AWS connection
 * (moto_server) with the platform's provisioners: the address the product shows for it is https://, as the
 * load balancer now serves it (platform/cloud/aws/application.moto.test.ts checks the listener and rules).
 */

const region = "us-west-2";
const moto = setUpMoto({
  region,
  // Fargate tasks that run, the tasks' AWS managed policy, and a certificate ACM issues at once.
  settings: {
    MOTO_ECS_SERVICE_RUNNING: "10",
    MOTO_IAM_LOAD_MANAGED_POLICIES: "true",
    MOTO_ACM_VALIDATION_WAIT: "0",
  },
});
let api: TestApi;
beforeAll(async () => {
  api = await openTestApi(
    { terraform: { ...defaultTerraformConfig, awsEndpoint: moto.endpoint } },
    { now: () => new Date(clock) },
  );
});

/** The engine's clock: moved on past each step's wait (moto answers at once) instead of waiting it out. */
let clock = Date.now();
async function settle() {
  for (let round = 0; round < 20; round++) {
    if ((await api.engine.runner.runUntilIdle()) === 0 && round > 0) return;
    clock += 60_000;
  }
}
afterAll(() => api?.close());

let member: TestMember;
let tenantId: string;
let environmentId: string;
beforeAll(async () => {
  member = await api.createMember({ role: "admin" });
  tenantId = member.organization.tenantId;
  environmentId = (await api.createAwsEnvironment(member, region)).id;
});

const call = (method: string, path: string, json?: unknown) =>
  api.call(method, path, { token: member.user.token, json });

async function create(serviceType: string, name: string, config: unknown) {
  const response = await call("POST", servicePaths.list(tenantId, environmentId), {
    serviceType,
    name,
    config,
    launch: true,
  });
  expect(response.status, await response.clone().text()).toBe(201);
  return resourceResponseSchema.parse(await response.json()).resource.id;
}

it("shows the https:// address of an application served with its domain's certificate", async () => {
  await create("network", "main", defaultServiceConfigs.network);
  await create("tls", "shop-cert", { ...defaultServiceConfigs.tls, domain: "shop.example.com" });
  await settle();

  const match = await call("GET", servicePaths.certificateMatch(tenantId, environmentId, "shop.example.com"));
  const { certificate } = certificateResponseSchema.parse(await match.json());
  expect(certificate).not.toBeNull();
  const id = await create("application", "shop", {
    ...defaultApplicationConfig,
    source: { kind: "image", image: "nginx:1.27" },
    domain: { host: "shop.example.com", certificateId: certificate?.id ?? "" },
  });
  await api.engine.runner.runUntilIdle();

  await settle();

  const response = await call("GET", servicePaths.one(tenantId, environmentId, id));
  expect(resourceResponseSchema.parse(await response.json()).resource).toMatchObject({
    stage: "STAGE_COMPLETED",
    endpoint: "https://shop.example.com",
  });
}, 120_000);
