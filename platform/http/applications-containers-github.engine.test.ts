import { randomUUID } from "node:crypto";
import { asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { defaultApplicationConfig } from "#contract/application-config";
import { connectionPaths, connectionResponseSchema } from "#contract/connections";
import {
  deployOnPushChangeResponseSchema,
  deployOnPushPaths,
  webhookAnswerSchema,
} from "#contract/deploy-on-push";
import { environmentPaths, environmentResponseSchema } from "#contract/environments";
import { isBusyStage } from "#contract/service-catalogue";
import { resourceResponseSchema, servicePaths } from "#contract/services";
import { imagesLabelled } from "../cloud/container/build";
import { LABEL_ENVIRONMENT, LABEL_SERVICE, labelFilter } from "../cloud/container/labels";
import { sealSecrets } from "../connections/records";
import { connections, resourceLogs } from "../db/schema";
import { signatureOf } from "../deploy-on-push/signature";
import { setUpContainerEngine } from "../testing/container-engine";
import { openTestApi, type TestApi, type TestMember } from "../testing/http-harness";
import { startFakeGitHub, type TestServer } from "../testing/provider-servers";

/*
 * Issue 26 through the API: an application built from a GitHub repository on a container host. The launch builds
 * the branch's head on the run's podman; a signed push then deploys the pushed commit, built on the engine too
 * (deploy on push); deleting the service removes its container and the image it built.
 */

const engine = setUpContainerEngine();
const token = "github-token-on-the-host";
const pushedSha = "feed5".padEnd(40, "1");
let api: TestApi;
let member: TestMember;
let tenantId: string;
let environmentId: string;
let github: TestServer;

const startScript = (page: string) => `mkdir -p /www
echo "${page}" > /www/index.html
echo ok > /www/healthz
exec httpd -f -p 8080 -h /www
`;

beforeAll(async () => {
  api = await openTestApi();
  member = await api.createMember({ role: "admin" });
  tenantId = member.organization.tenantId;
  const dockerfile = `FROM ${engine.images.web}\nCOPY start.sh /start.sh\n`;
  github = await startFakeGitHub({
    token,
    organizations: {
      acme: {
        repositories: [
          {
            name: "web",
            files: { Dockerfile: dockerfile, "start.sh": startScript("built from main") },
            commits: {
              [pushedSha]: { Dockerfile: dockerfile, "start.sh": startScript("built from the push") },
            },
          },
        ],
      },
    },
  });
}, 30_000);

afterAll(async () => {
  if (environmentId) {
    const filters = labelFilter({ [LABEL_ENVIRONMENT]: environmentId });
    for (const container of await engine.engine.listContainers({ all: true, filters })) {
      await engine.engine.getContainer(container.Id).remove({ force: true });
    }
    for (const image of await imagesLabelled(engine.engine, { [LABEL_ENVIRONMENT]: environmentId })) {
      await engine.engine.getImage(image.Id).remove({ force: true });
    }
  }
  await github?.close();
  await api?.close();
});

const call = (method: string, path: string, json?: unknown) =>
  api.call(method, path, { token: member.user.token, json });

/** Runs due jobs until the service's stage is no longer busy. */
async function settled(id: string) {
  const deadline = Date.now() + 90_000;
  for (;;) {
    await api.engine.runner.runUntilIdle();
    const response = await call("GET", servicePaths.one(tenantId, environmentId, id));
    const { resource } = resourceResponseSchema.parse(await response.json());
    if (!isBusyStage(resource.stage) || Date.now() > deadline) {
      return { stage: resource.stage, endpoint: resource.endpoint, message: resource.message ?? "" };
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function logsOf(resourceId: string) {
  const rows = await api.db
    .select({ message: resourceLogs.message })
    .from(resourceLogs)
    .where(eq(resourceLogs.resourceId, resourceId))
    .orderBy(asc(resourceLogs.at));
  return rows.map((row) => row.message);
}

const pageOf = async (endpoint: string | null) => (await fetch(endpoint ?? "")).text();

it("builds a GitHub application on a container host, deploys a pushed commit built there, and its deletion leaves nothing", async () => {
  // The GitHub connection, as deploy on push's tests make it (its check has its own tests).
  const githubConnectionId = randomUUID();
  await api.db.insert(connections).values({
    id: githubConnectionId,
    organizationId: member.organization.organizationId,
    kind: "VERSION_CONTROL_TYPE_GITHUB",
    name: "github-acme",
    method: "token",
    fields: { BASE_URL: github.url, ORGANIZATION: "acme" },
    ...sealSecrets(api.secrets, githubConnectionId, { TOKEN: token }),
    status: "VERIFIED",
  });
  const host = await call("POST", connectionPaths.list(tenantId), {
    kind: "CONTAINER_HOST",
    name: "This machine",
    method: "docker-host",
    fields: { DOCKER_HOST: engine.dockerHost },
  });
  expect(host.status, await host.clone().text()).toBe(201);
  const { connection } = connectionResponseSchema.parse(await host.json());
  const created = await call("POST", environmentPaths.list(tenantId), {
    name: "built-here",
    cloudProvider: "CONTAINERS",
    region: "local",
    cloudConnectionId: connection.id,
  });
  expect(created.status, await created.clone().text()).toBe(201);
  environmentId = environmentResponseSchema.parse(await created.json()).environment.id;

  const launched = await call("POST", servicePaths.list(tenantId, environmentId), {
    serviceType: "application",
    name: "web",
    config: {
      ...defaultApplicationConfig,
      // The test image's server listens on 8080.
      ports: [{ port: 8080, protocol: "HTTP", public: true }],
      healthCheck: { ...defaultApplicationConfig.healthCheck, port: 8080, path: "/healthz" },
      source: {
        kind: "github",
        connectionId: githubConnectionId,
        repository: "acme/web",
        branch: "main",
        dockerfilePath: "Dockerfile",
        buildContext: ".",
      },
    },
    launch: true,
  });
  expect(launched.status, await launched.clone().text()).toBe(201);
  const { id } = resourceResponseSchema.parse(await launched.json()).resource;

  const first = await settled(id);
  expect(first, first.message).toMatchObject({
    stage: "STAGE_COMPLETED",
    endpoint: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/),
  });
  expect(await pageOf(first.endpoint)).toBe("built from main\n");
  expect(await logsOf(id)).toContainEqual(
    expect.stringMatching(/^step 2\/\d+ ?: COPY start\.sh \/start\.sh$/i),
  );

  // Deploy on push: the hook's secret, then a push signed with it.
  const enabled = await call("PUT", deployOnPushPaths.settings(tenantId, environmentId, id), {
    enabled: true,
  });
  expect(enabled.status, await enabled.clone().text()).toBe(200);
  const { deployOnPush, secret } = deployOnPushChangeResponseSchema.parse(await enabled.json());
  const hookId = deployOnPush.webhookUrl.split("/").at(-1) ?? "";
  const event = JSON.stringify({
    ref: "refs/heads/main",
    before: "0".repeat(40),
    after: pushedSha,
    deleted: false,
    repository: { id: 1, full_name: "acme/web", private: true },
    pusher: { name: "octocat", email: "octocat@example.test" },
    head_commit: {
      id: pushedSha,
      timestamp: "2026-11-27T12:00:00+00:00",
      message: "Say where it was built\n\nFrom the push.",
      author: { name: "Mona Octocat", username: "octocat" },
    },
  });
  const delivered = await api.app.request(`/api${deployOnPushPaths.webhook(hookId)}`, {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      "X-GitHub-Event": "push",
      "X-GitHub-Delivery": randomUUID(),
      "X-Hub-Signature-256": signatureOf(secret ?? "", event),
    },
    body: event,
  });
  expect(delivered.status).toBe(202);
  expect(webhookAnswerSchema.parse(await delivered.json()).outcome).toBe("deployment-queued");

  const pushed = await settled(id);
  expect(pushed, pushed.message).toMatchObject({ stage: "STAGE_COMPLETED" });
  expect(await pageOf(pushed.endpoint)).toBe("built from the push\n");
  expect(await logsOf(id)).toContain("Cloning acme/web at main (feed511 Say where it was built)");
  expect(github.requests.some((request) => request.path === `/repos/acme/web/tarball/${pushedSha}`)).toBe(
    true,
  );
  // One container; the first build's image is kept beside the new one, for a rollback without a build.
  const filters = labelFilter({ [LABEL_SERVICE]: id });
  expect(await engine.engine.listContainers({ all: true, filters })).toHaveLength(1);
  expect(await imagesLabelled(engine.engine, { [LABEL_SERVICE]: id })).toHaveLength(2);

  const path = servicePaths.one(tenantId, environmentId, id);
  const deleted = await call("DELETE", path);
  expect([202, 204], await deleted.clone().text()).toContain(deleted.status);
  const byEnvironment = labelFilter({ [LABEL_ENVIRONMENT]: environmentId });
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline && (await call("GET", path)).status !== 404) {
    await api.engine.runner.runUntilIdle();
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  expect((await call("GET", path)).status).toBe(404);
  expect(await engine.engine.listContainers({ all: true, filters: byEnvironment })).toEqual([]);
  expect(await imagesLabelled(engine.engine, { [LABEL_ENVIRONMENT]: environmentId })).toEqual([]);
}, 180_000);
