import { randomUUID } from "node:crypto";
import { asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import {
  deployOnPushChangeResponseSchema,
  deployOnPushPaths,
  webhookAnswerSchema,
} from "#contract/deploy-on-push";
import { environmentPaths } from "#contract/environments";
import { resourceResponseSchema, servicePaths } from "#contract/services";
import { imagesLabelled } from "../cloud/container/build";
import { LABEL_ENVIRONMENT, LABEL_SERVICE, labelFilter } from "../cloud/container/labels";
import { sealSecrets } from "../connections/records";
import { connections, resourceLogs } from "../db/schema";
import { signatureOf } from "../deploy-on-push/signature";
import { setUpContainerApi, testWebConfig } from "../testing/container-api";
import { builtWebStart, setUpContainerEngine } from "../testing/container-engine";
import { startFakeGitHub, type TestServer } from "../testing/provider-servers";

/*
 * Issue 26 through the API: an application built from a GitHub repository on a container host. The launch builds
 * the branch's head on the run's podman; a signed push then deploys the pushed commit, built on the engine too
 * (deploy on push); deleting the environment removes its container, the images it built and its network.
 */

const engine = setUpContainerEngine();
const platform = setUpContainerApi(engine);
const token = "github-token-on-the-host";
const pushedSha = "feed5".padEnd(40, "1");
let environmentId: string;
let github: TestServer;

beforeAll(async () => {
  const dockerfile = `FROM ${engine.images.web}\nCOPY start.sh /start.sh\n`;
  github = await startFakeGitHub({
    token,
    organizations: {
      acme: {
        repositories: [
          {
            name: "web",
            files: { Dockerfile: dockerfile, "start.sh": builtWebStart("built from main") },
            commits: {
              [pushedSha]: { Dockerfile: dockerfile, "start.sh": builtWebStart("built from the push") },
            },
          },
        ],
      },
    },
  });
}, 30_000);

afterAll(async () => {
  await github?.close();
});

async function logsOf(resourceId: string) {
  const rows = await platform.api.db
    .select({ message: resourceLogs.message })
    .from(resourceLogs)
    .where(eq(resourceLogs.resourceId, resourceId))
    .orderBy(asc(resourceLogs.at));
  return rows.map((row) => row.message);
}

const pageOf = async (endpoint: string | null) => (await fetch(endpoint ?? "")).text();

it("builds a GitHub application on a container host, deploys a pushed commit built there, and deleting its environment leaves nothing labelled with it", async () => {
  // The GitHub connection, as deploy on push's tests make it (its check has its own tests).
  const githubConnectionId = randomUUID();
  await platform.api.db.insert(connections).values({
    id: githubConnectionId,
    organizationId: platform.member.organization.organizationId,
    kind: "VERSION_CONTROL_TYPE_GITHUB",
    name: "github-acme",
    method: "token",
    fields: { BASE_URL: github.url, ORGANIZATION: "acme" },
    ...sealSecrets(platform.api.secrets, githubConnectionId, { TOKEN: token }),
    status: "VERIFIED",
  });
  environmentId = (await platform.createEnvironment("built-here")).environmentId;

  const launched = await platform.call("POST", servicePaths.list(platform.tenantId, environmentId), {
    serviceType: "application",
    name: "web",
    config: testWebConfig({
      kind: "github",
      connectionId: githubConnectionId,
      repository: "acme/web",
      branch: "main",
      dockerfilePath: "Dockerfile",
      buildContext: ".",
    }),
    launch: true,
  });
  expect(launched.status, await launched.clone().text()).toBe(201);
  const { id } = resourceResponseSchema.parse(await launched.json()).resource;

  const first = await platform.settled(environmentId, id, { timeoutMs: 90_000 });
  expect(first, first.message ?? "").toMatchObject({
    stage: "STAGE_COMPLETED",
    endpoint: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/),
  });
  expect(await pageOf(first.endpoint)).toBe("built from main\n");
  expect(await logsOf(id)).toContainEqual(
    expect.stringMatching(/^step 2\/\d+ ?: COPY start\.sh \/start\.sh$/i),
  );

  // Deploy on push: the hook's secret, then a push signed with it.
  const enabled = await platform.call(
    "PUT",
    deployOnPushPaths.settings(platform.tenantId, environmentId, id),
    {
      enabled: true,
    },
  );
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
  const delivered = await platform.api.app.request(`/api${deployOnPushPaths.webhook(hookId)}`, {
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

  const pushed = await platform.settled(environmentId, id, { timeoutMs: 90_000 });
  expect(pushed, pushed.message ?? "").toMatchObject({ stage: "STAGE_COMPLETED" });
  expect(await pageOf(pushed.endpoint)).toBe("built from the push\n");
  expect(await logsOf(id)).toContain("Cloning acme/web at main (feed511 Say where it was built)");
  expect(github.requests.some((request) => request.path === `/repos/acme/web/tarball/${pushedSha}`)).toBe(
    true,
  );
  // One container; the first build's image is kept beside the new one, for a rollback without a build.
  const filters = labelFilter({ [LABEL_SERVICE]: id });
  expect(await engine.engine.listContainers({ all: true, filters })).toHaveLength(1);
  expect(await imagesLabelled(engine.engine, { [LABEL_SERVICE]: id })).toHaveLength(2);

  // Deleting the environment removes its containers, the images it built and its network: nothing labelled
  // with it is left on the engine.
  const byEnvironment = labelFilter({ [LABEL_ENVIRONMENT]: environmentId });
  expect(await engine.engine.listNetworks({ filters: byEnvironment })).toHaveLength(1);
  const path = environmentPaths.one(platform.tenantId, environmentId);
  const deleted = await platform.call("DELETE", path);
  expect([202, 204], await deleted.clone().text()).toContain(deleted.status);
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline && (await platform.call("GET", path)).status !== 404) {
    await platform.api.engine.runner.runUntilIdle();
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  expect((await platform.call("GET", path)).status).toBe(404);
  expect({
    containers: await engine.engine.listContainers({ all: true, filters: byEnvironment }),
    volumes: (await engine.engine.listVolumes({ filters: byEnvironment })).Volumes ?? [],
    networks: await engine.engine.listNetworks({ filters: byEnvironment }),
    images: await imagesLabelled(engine.engine, { [LABEL_ENVIRONMENT]: environmentId }),
  }).toEqual({ containers: [], volumes: [], networks: [], images: [] });
}, 180_000);
