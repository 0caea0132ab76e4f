import { request as httpRequest } from "node:http";
import { randomUUID } from "node:crypto";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { defaultApplicationConfig } from "../../contract/application-config";
import { connectionPaths, connectionResponseSchema } from "../../contract/connections";
import {
  environmentPaths,
  environmentListSchema,
  environmentResponseSchema,
} from "../../contract/environments";
import {
  previewListSchema,
  previewPaths,
  previewSettingsChangeResponseSchema,
  previewWebhookAnswerSchema,
  type Preview,
} from "../../contract/previews";
import { resourceResponseSchema, servicePaths } from "../../contract/services";
import { LABEL_ENVIRONMENT, labelFilter } from "../../platform/cloud/container/labels";
import { signatureOf } from "../../platform/deploy-on-push/signature";
import { builtWebStart } from "../../platform/testing/container-engine";
import { startFakeGitHub, type FakeGitHub } from "../../platform/testing/provider-servers";
import { appUrl, platformUrl } from "../../playwright.config";
import { e2eEngine } from "../setup/container-engine";
import { uniqueEnvironmentName } from "../setup/environments";
import { openHydrated } from "../setup/hydration";
import { signIn } from "../setup/sign-in";

/*
 * Issue 28 end to end on the container driver: an environment on the run's podman with an application built from
 * a repository of the test GitHub server, and its preview setting on. A signed pull_request.opened makes the pull
 * request's preview, built from its head on this machine; Chromium's environments list shows it under its source;
 * its URL answers the branch's page and the pull request holds one comment with that URL. A synchronize rebuilds
 * it from the new head and edits the same comment; closed removes the environment and its containers.
 */

test.setTimeout(300_000);

const GITHUB_TOKEN = "github_pat_previews_0123456789";
const OWNER = "acme-previews";
const NUMBER = 17;
const openedSha = "a11ce".padEnd(40, "0");
const pushedSha = "b0b5".padEnd(40, "0");

let github: FakeGitHub;
test.beforeAll(async () => {
  const dockerfile = `FROM ${e2eEngine().images.web}\nCOPY start.sh /start.sh\n`;
  const files = (page: string) => ({ Dockerfile: dockerfile, "start.sh": builtWebStart(page) });
  github = await startFakeGitHub({
    token: GITHUB_TOKEN,
    organizations: {
      [OWNER]: {
        repositories: [
          {
            name: "web",
            branches: ["main", "blue-header"],
            files: files("the main branch"),
            commits: {
              [openedSha]: files("blue-header: the header is blue"),
              [pushedSha]: files("blue-header: the header is bluer"),
            },
          },
        ],
      },
    },
  });
});
test.afterAll(async () => {
  await github?.close();
});

/**
 * The platform API as a personal API token of the signed-in member calls it: the token is made with the API tokens
 * page's action (its answer shows the value once), as the page's form posts it.
 */
async function apiOf(page: Page) {
  const created = await page.request.post("/settings/api-tokens", {
    form: { intent: "create", name: `previews-e2e-${randomUUID().slice(0, 8)}`, expiresInDays: "7" },
    headers: { Origin: appUrl },
  });
  const value = (await created.text()).match(/ccp_[A-Za-z0-9]{36}/)?.[0];
  if (!value) throw new Error(`no API token in the answer (${created.status()})`);
  const headers = { Authorization: `Bearer ${value}` };
  const current = await page.request.get(`${platformUrl}/api/api-tokens/current`, { headers });
  const { tenantId } = (await current.json()) as { tenantId: string };
  const call = async (method: string, path: string, json?: unknown) => {
    const response = await page.request.fetch(`${platformUrl}/api${path}`, {
      method,
      headers,
      ...(json === undefined ? {} : { data: json }),
    });
    const text = await response.text();
    return {
      status: response.status(),
      text,
      body: (text.startsWith("{") ? JSON.parse(text) : null) as unknown,
    };
  };
  return { tenantId, call };
}
type Api = Awaited<ReturnType<typeof apiOf>>;

/** A pull_request event of acme-previews/web's pull request, as GitHub sends it. */
const pullRequestEvent = (action: string, sha: string, updatedAt: string) => ({
  action,
  number: NUMBER,
  pull_request: {
    number: NUMBER,
    title: "Make the header blue",
    html_url: `https://github.example/${OWNER}/web/pull/${NUMBER}`,
    user: { login: "octocat" },
    head: { ref: "blue-header", sha },
    merged: false,
    updated_at: updatedAt,
  },
  repository: { full_name: `${OWNER}/web` },
});

/** Delivers `event` to the setting's webhook signed with its secret, as GitHub does. */
async function deliver(request: APIRequestContext, webhookId: string, secret: string, event: unknown) {
  const body = JSON.stringify(event);
  const response = await request.post(`${platformUrl}/api${previewPaths.webhook(webhookId)}`, {
    headers: {
      "Content-Type": "application/json",
      "X-GitHub-Event": "pull_request",
      "X-GitHub-Delivery": randomUUID(),
      "X-Hub-Signature-256": signatureOf(secret, body),
    },
    data: body,
  });
  expect(response.status(), await response.text()).toBe(202);
  return previewWebhookAnswerSchema.parse(await response.json());
}

async function previewOf(api: Api, sourceId: string): Promise<Preview | undefined> {
  const { body } = await api.call("GET", previewPaths.list(api.tenantId));
  return previewListSchema
    .parse(body)
    .previews.find((preview) => preview.source.id === sourceId && preview.pullRequest.number === NUMBER);
}

/** What the page at `url` says, or "" while nothing answers there. */
const pageAt = (url: string) =>
  fetch(url).then(
    (response) => (response.ok ? response.text() : ""),
    () => "",
  );

/** The containers the run's podman holds labelled with the environment, running or not. */
function containersOf(environmentId: string): Promise<unknown[]> {
  const filters = encodeURIComponent(labelFilter({ [LABEL_ENVIRONMENT]: environmentId }));
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      { socketPath: e2eEngine().socketPath, path: `/containers/json?all=true&filters=${filters}` },
      (response) => {
        let text = "";
        response.on("data", (chunk: Buffer) => (text += chunk.toString()));
        response.on("end", () => resolve(JSON.parse(text) as unknown[]));
      },
    );
    request.on("error", reject);
    request.end();
  });
}

test("a pull request opened on GitHub gets its preview on this machine: listed under its source, its URL answering the branch's page and commented on the pull request; a push rebuilds it and edits the comment; closing removes it and its containers", async ({
  page,
  request,
}) => {
  await signIn(page, "ada@example.com");
  const api = await apiOf(page);
  const created = async (path: string, json: unknown) => {
    const answer = await api.call("POST", path, json);
    expect(answer.status, answer.text).toBe(201);
    return answer.body;
  };

  // The source: an environment on this machine with web built from acme-previews/web's main branch, running.
  const suffix = `${Date.now().toString(36)}`;
  const host = connectionResponseSchema.parse(
    await created(connectionPaths.list(api.tenantId), {
      kind: "CONTAINER_HOST",
      name: `This machine ${suffix}`,
      method: "docker-host",
      fields: { DOCKER_HOST: e2eEngine().dockerHost },
    }),
  ).connection;
  const githubConnection = connectionResponseSchema.parse(
    await created(connectionPaths.list(api.tenantId), {
      kind: "VERSION_CONTROL_TYPE_GITHUB",
      name: `GitHub previews ${suffix}`,
      method: "token",
      fields: { ORGANIZATION: OWNER, TOKEN: GITHUB_TOKEN, BASE_URL: github.url },
    }),
  ).connection;
  const sourceName = uniqueEnvironmentName("previews");
  const source = environmentResponseSchema.parse(
    await created(environmentPaths.list(api.tenantId), {
      name: sourceName,
      cloudProvider: "CONTAINERS",
      region: "local",
      cloudConnectionId: host.id,
    }),
  ).environment;
  const web = resourceResponseSchema.parse(
    await created(servicePaths.list(api.tenantId, source.id), {
      serviceType: "application",
      name: "web",
      // The built page's server (builtWebStart) listens on 8080 and answers its health check at /healthz.
      config: {
        ...defaultApplicationConfig,
        source: {
          kind: "github",
          connectionId: githubConnection.id,
          repository: `${OWNER}/web`,
          branch: "main",
          dockerfilePath: "Dockerfile",
          buildContext: ".",
        },
        ports: [{ port: 8080, protocol: "HTTP", public: true }],
        healthCheck: { ...defaultApplicationConfig.healthCheck, port: 8080, path: "/healthz" },
      },
      launch: true,
    }),
  ).resource;
  await expect
    .poll(
      async () => {
        const { body } = await api.call("GET", servicePaths.one(api.tenantId, source.id, web.id));
        const { resource } = resourceResponseSchema.parse(body);
        return resource.endpoint ? pageAt(resource.endpoint) : resource.stage;
      },
      { timeout: 120_000, intervals: [1_000] },
    )
    .toBe("the main branch\n");

  // The preview setting: its answer holds the webhook's secret, once.
  const saved = await api.call("PUT", previewPaths.settings(api.tenantId, source.id), {
    enabled: true,
    connectionId: githubConnection.id,
    repository: `${OWNER}/web`,
    applicationIds: [web.id],
    namePattern: "{environment}-pr-{number}",
    maxPreviews: 3,
    idleDays: 7,
  });
  expect(saved.status, saved.text).toBe(200);
  const { previewSettings, secret } = previewSettingsChangeResponseSchema.parse(saved.body);
  if (!secret) throw new Error("the setting's first save answered no secret");
  const webhookId = previewSettings.webhookUrl.split("/").at(-1) ?? "";

  // Opened: the preview is made and its URL answers the pull request's head.
  const openedAt = Date.now();
  const opened = await deliver(
    request,
    webhookId,
    secret,
    pullRequestEvent("opened", openedSha, "2026-11-27T17:00:00Z"),
  );
  expect(opened.outcome).toBe("opening");
  let preview: Preview | undefined;
  await expect
    .poll(
      async () => {
        preview = await previewOf(api, source.id);
        return preview?.url ? pageAt(preview.url) : (preview?.message ?? preview?.state ?? "no preview");
      },
      { timeout: 180_000, intervals: [500] },
    )
    .toBe("blue-header: the header is blue\n");
  const answeredIn = Date.now() - openedAt;
  const previewName = `${sourceName}-pr-${NUMBER}`;
  expect(preview).toMatchObject({ environmentName: previewName, headSha: openedSha });
  const previewEnvironmentId = preview?.environmentId ?? "";
  const firstUrl = preview?.url ?? "";
  console.info(`previews.spec: from pull_request.opened to ${firstUrl} answering: ${answeredIn} ms`);

  // The pull request holds one comment with that URL.
  const comments = () => github.comments.filter((comment) => comment.number === NUMBER);
  await expect.poll(() => comments().map((comment) => comment.body.includes(firstUrl))).toEqual([true]);

  // Chromium: the environments list shows the preview under its source, with the pull request and its cost.
  await openHydrated(page, "/environments");
  const table = page.getByRole("table", { name: "Environments" });
  const rows = table.getByRole("row");
  const names = await rows.evaluateAll((all) => all.map((row) => row.querySelector("a")?.textContent ?? ""));
  expect(names.indexOf(previewName)).toBe(names.indexOf(sourceName) + 1);
  const previewRow = rows.filter({ has: page.getByRole("link", { name: previewName, exact: true }) });
  await expect(previewRow).toContainText(`Preview of ${sourceName}`);
  await expect(previewRow.getByRole("link", { name: `#${NUMBER} Make the header blue` })).toHaveAttribute(
    "href",
    `https://github.example/${OWNER}/web/pull/${NUMBER}`,
  );
  await expect(previewRow).toContainText("by octocat");
  // On a container host a service costs nothing: the preview's monthly estimate is $0.
  await expect(previewRow.getByRole("cell").last()).toHaveText("$0.00");
  const { body: listed } = await api.call("GET", environmentPaths.list(api.tenantId));
  const previewEnvironment = environmentListSchema
    .parse(listed)
    .environments.find((environment) => environment.id === previewEnvironmentId);
  expect(previewEnvironment?.monthlyCostEstimate).toBe(0);
  console.info(
    `previews.spec: the preview's monthly cost estimate: $${previewEnvironment?.monthlyCostEstimate}`,
  );
  await page.goto(firstUrl);
  await expect(page.getByText("blue-header: the header is blue")).toBeVisible();

  // Synchronize: the new head is built and served, and the same comment is edited with the URL.
  const pushedAt = Date.now();
  const pushed = await deliver(
    request,
    webhookId,
    secret,
    pullRequestEvent("synchronize", pushedSha, "2026-11-27T17:05:00Z"),
  );
  expect(pushed.outcome).toBe("redeploying");
  await expect
    .poll(
      async () => {
        preview = await previewOf(api, source.id);
        return preview?.state === "READY" && preview.url ? pageAt(preview.url) : (preview?.state ?? "");
      },
      { timeout: 180_000, intervals: [500] },
    )
    .toBe("blue-header: the header is bluer\n");
  const secondUrl = preview?.url ?? "";
  console.info(
    `previews.spec: from synchronize to ${secondUrl} answering the new head: ${Date.now() - pushedAt} ms`,
  );
  await expect
    .poll(() =>
      comments().map((comment) => ({ url: comment.body.includes(secondUrl), edited: comment.edits > 0 })),
    )
    .toEqual([{ url: true, edited: true }]);

  // Closed: the preview's environment and its containers go; the source keeps serving main.
  const running = await containersOf(previewEnvironmentId);
  expect(running).not.toHaveLength(0);
  console.info(`previews.spec: the comment: ${JSON.stringify(comments()[0]?.body)}`);
  const closed = await deliver(
    request,
    webhookId,
    secret,
    pullRequestEvent("closed", pushedSha, "2026-11-27T17:10:00Z"),
  );
  expect(closed.outcome).toBe("removing");
  const closedAt = Date.now();
  await expect
    .poll(async () => (await previewOf(api, source.id))?.state, { timeout: 120_000, intervals: [500] })
    .toBe("REMOVED");
  expect((await api.call("GET", environmentPaths.one(api.tenantId, previewEnvironmentId))).status).toBe(404);
  expect(await containersOf(previewEnvironmentId)).toEqual([]);
  console.info(
    `previews.spec: from closed to the preview's environment and containers gone: ${Date.now() - closedAt} ms`,
  );
  expect(await pageAt(secondUrl)).toBe("");
  const { body } = await api.call("GET", servicePaths.one(api.tenantId, source.id, web.id));
  expect(await pageAt(resourceResponseSchema.parse(body).resource.endpoint ?? "")).toBe("the main branch\n");
  await expect.poll(() => comments().length).toBe(1);
  // GitHub's deployments of the two heads: the first's ended in success, the last's inactive once removed.
  await expect
    .poll(() => github.deployments.map((deployment) => [deployment.ref, deployment.statuses.at(-1)?.state]))
    .toEqual([
      [openedSha, "success"],
      [pushedSha, "inactive"],
    ]);
});
