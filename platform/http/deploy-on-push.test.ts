import { defaultApplicationConfig, type ApplicationConfig } from "#contract/application-config";
import { randomUUID } from "node:crypto";
import { and, asc, count, eq, inArray } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import {
  deployCommitResponseSchema,
  deployOnPushChangeResponseSchema,
  deployOnPushMessages,
  deployOnPushPaths,
  deployOnPushResponseSchema,
  webhookAnswerSchema,
} from "#contract/deploy-on-push";
import { apiErrorCodes } from "#contract/errors";
import { defaultServiceSettings } from "#contract/services";
import { sealSecrets } from "../connections/records";
import { startFakeGitHub, type TestServer } from "../testing/provider-servers";
import {
  auditEvents,
  connections,
  deployHooks,
  deployPushes,
  engineJobs,
  resourceHistory,
  resourceLogs,
  resources,
} from "../db/schema";
import { pushedCommitOf } from "../deployments/pushed-commits";
import { PUSH_DEPLOY_JOB_KIND } from "../deploy-on-push/pushes";
import { signatureOf } from "../deploy-on-push/signature";
import { DEPLOY_JOB_KIND } from "../deployments/deploys";
import { fakeDriver } from "../testing/driver";
import { openTestApi, uniqueName, type TestApi, type TestMember } from "../testing/http-harness";

/** A commit of acme/web before the branch's head, for a deployment asked for by its SHA. */
const OLDER_COMMIT = "5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b1c2d3e4f";
let api: TestApi;
let member: TestMember;
let environmentId: string;
/** GitHub as the builds reach it: the repository's Dockerfile, read at the pushed commit. */
let github: TestServer;
let githubConnectionId: string;
beforeAll(async () => {
  api = await openTestApi({}, { driver: fakeDriver() });
  member = await api.createMember();
  environmentId = (await api.createEnvironment(member.organization.tenantId)).id;
  github = await startFakeGitHub({
    token: "github-token-5678",
    organizations: {
      acme: {
        repositories: [
          {
            name: "web",
            branches: ["main"],
            files: { Dockerfile: "FROM nginx:1.27" },
            commits: { [OLDER_COMMIT]: { Dockerfile: "FROM nginx:1.26" } },
          },
        ],
      },
    },
  });
  githubConnectionId = randomUUID();
  await api.db.insert(connections).values({
    id: githubConnectionId,
    organizationId: member.organization.organizationId,
    kind: "VERSION_CONTROL_TYPE_GITHUB",
    name: "github-acme",
    method: "token",
    fields: { BASE_URL: github.url, ORGANIZATION: "acme" },
    ...sealSecrets(api.secrets, githubConnectionId, { TOKEN: "github-token-5678" }),
    status: "VERIFIED",
  });
});
afterAll(async () => {
  await github.close();
  await api.close();
});

/** Every line the webhook logged: none may carry a secret or a signature. */
const warnings = vi.spyOn(console, "warn").mockImplementation(() => undefined);
const secretsGiven: string[] = [];
afterEach(() => {
  const logged = warnings.mock.calls.flat().join("\n");
  for (const secret of secretsGiven) expect(logged).not.toContain(secret);
});

const t = () => member.organization.tenantId;
const call = (method: string, path: string, json?: unknown, as: TestMember = member) =>
  api.call(method, path, { token: as.user.token, json });

/**
 * A deployed application built from the GitHub connection's acme/web.
 */
async function githubApplication({ branch = "main", deployed = true, repository = "acme/web" } = {}) {
  const [row] = await api.db
    .insert(resources)
    .values({
      environmentId,
      name: uniqueName("web"),
      serviceType: "application",
      stage: deployed ? "STAGE_COMPLETED" : "STAGE_DRAFT",
      config: {
        ...defaultApplicationConfig,
        source: {
          kind: "github",
          connectionId: githubConnectionId,
          repository,
          branch,
          dockerfilePath: "Dockerfile",
          buildContext: ".",
        },
      },
      settings: defaultServiceSettings,
      deployedAt: deployed ? new Date("2026-01-10T12:00:00.000Z") : null,
    })
    .returning();
  if (!row) throw new Error("application was not created");
  return row;
}

/** A deployed application that runs a public image: nothing to build from GitHub. */
async function imageApplication() {
  const [row] = await api.db
    .insert(resources)
    .values({
      environmentId,
      name: uniqueName("img"),
      serviceType: "application",
      stage: "STAGE_COMPLETED",
      config: { ...defaultApplicationConfig, source: { kind: "image", image: "nginx:1.27" } },
      settings: defaultServiceSettings,
    })
    .returning();
  if (!row) throw new Error("application was not created");
  return row;
}

/** Switches deploy on push on and returns the hook's id and secret. */
async function enable(resourceId: string) {
  const response = await call("PUT", deployOnPushPaths.settings(t(), environmentId, resourceId), {
    enabled: true,
  });
  expect(response.status).toBe(200);
  const { deployOnPush, secret } = deployOnPushChangeResponseSchema.parse(await response.json());
  if (!secret) throw new Error("no secret was answered");
  secretsGiven.push(secret);
  const hookId = deployOnPush.webhookUrl.split("/").at(-1) ?? "";
  return { hookId, secret, deployOnPush };
}

let commits = 0;
/** A push event as GitHub sends it (the fields deploying reads, and some it does not). */
function pushEvent({ ref = "refs/heads/main", repository = "acme/web", message = "Fix the header" } = {}) {
  commits += 1;
  const sha = `${commits.toString(16).padStart(4, "0")}${"ab12cd34".repeat(5)}`.slice(0, 40);
  return {
    ref,
    before: "0".repeat(40),
    after: sha,
    deleted: false,
    repository: { id: 1, full_name: repository, private: true },
    pusher: { name: "octocat", email: "octocat@example.test" },
    head_commit: {
      id: sha,
      // Each commit a minute after the one before, in GitHub's format (with the committer's offset).
      timestamp: new Date(Date.UTC(2026, 0, 12, 9, 0) + commits * 60_000)
        .toISOString()
        .replace("Z", "+00:00"),
      message: `${message}\n\nLonger explanation.`,
      author: { name: "Mona Octocat", username: "octocat" },
    },
    commits: [],
  };
}

async function deliver(
  hookId: string,
  body: string,
  {
    secret,
    event = "push",
    delivery = randomUUID(),
    signature = secret ? signatureOf(secret, body) : undefined,
    contentType = "application/json",
  }: { secret?: string; event?: string; delivery?: string; signature?: string; contentType?: string },
) {
  const headers: Record<string, string> = {
    "Content-Type": contentType,
    "X-GitHub-Event": event,
    "X-GitHub-Delivery": delivery,
    "User-Agent": "GitHub-Hookshot/test",
  };
  if (signature) headers["X-Hub-Signature-256"] = signature;
  const response = await api.app.request(`/api${deployOnPushPaths.webhook(hookId)}`, {
    method: "POST",
    headers,
    body,
  });
  const text = await response.text();
  for (const given of secretsGiven) expect(text).not.toContain(given);
  return { status: response.status, body: JSON.parse(text) as unknown };
}

async function push(hookId: string, secret: string, event = pushEvent(), delivery?: string) {
  const delivered = await deliver(hookId, JSON.stringify(event), { secret, delivery });
  return { status: delivered.status, answer: webhookAnswerSchema.parse(delivered.body), sha: event.after };
}

async function deployJobsOf(resourceId: string, kind = DEPLOY_JOB_KIND) {
  const jobs = await api.db
    .select()
    .from(engineJobs)
    .where(eq(engineJobs.kind, kind))
    .orderBy(asc(engineJobs.createdAt));
  return jobs.filter((job) => (job.payload as { resourceId?: string }).resourceId === resourceId);
}

/** Runs the queued deployment to its end, which must be completed, and answers the service's log lines. */
async function deployedLogOf(resourceId: string) {
  await api.engine.runner.runUntilIdle();
  const [deployed] = await api.db.select().from(resources).where(eq(resources.id, resourceId));
  expect(deployed?.stage).toBe("STAGE_COMPLETED");
  const lines = await api.db
    .select({ message: resourceLogs.message })
    .from(resourceLogs)
    .where(eq(resourceLogs.resourceId, resourceId));
  return lines.map((line) => line.message);
}

async function deploymentsOf(resourceId: string) {
  return api.db
    .select()
    .from(resourceHistory)
    .where(and(eq(resourceHistory.resourceId, resourceId), eq(resourceHistory.action, "Relaunch")))
    .orderBy(asc(resourceHistory.at));
}

describe("deploy on push's settings", () => {
  it("makes the hook when switched on, answering its secret once, sealed at rest", async () => {
    const application = await githubApplication();
    const path = deployOnPushPaths.settings(t(), environmentId, application.id);
    expect(await (await call("GET", path)).json()).toEqual({ deployOnPush: null });

    const { hookId, secret, deployOnPush } = await enable(application.id);
    expect(secret).toMatch(/^[0-9a-f]{64}$/);
    expect(deployOnPush).toMatchObject({
      enabled: true,
      webhookUrl: `http://platform.test/api/webhooks/github/${hookId}`,
      repository: "acme/web",
      branch: "main",
      lastPush: null,
    });
    expect(hookId).not.toBe(application.id);
    const [row] = await api.db.select().from(deployHooks).where(eq(deployHooks.id, hookId));
    expect(row?.sealedSecret).not.toContain(secret);

    const shown = await call("GET", path);
    const text = await shown.text();
    expect(text).not.toContain(secret);
    expect(deployOnPushResponseSchema.parse(JSON.parse(text)).deployOnPush?.enabled).toBe(true);

    // Switching off and on again keeps the hook and its secret (GitHub's copy stays valid), shown no more.
    const off = await call("PUT", path, { enabled: false });
    expect(deployOnPushChangeResponseSchema.parse(await off.json())).toMatchObject({
      deployOnPush: { enabled: false },
    });
    const on = deployOnPushChangeResponseSchema.parse(
      await (await call("PUT", path, { enabled: true })).json(),
    );
    expect(on.secret).toBeUndefined();
    expect(on.deployOnPush.webhookUrl).toBe(deployOnPush.webhookUrl);
  });

  it("rotates the secret: payloads signed with the old one are refused from then on", async () => {
    const application = await githubApplication();
    const { hookId, secret: old } = await enable(application.id);
    const rotated = await call("POST", deployOnPushPaths.secret(t(), environmentId, application.id));
    expect(rotated.status).toBe(200);
    const { secret } = deployOnPushChangeResponseSchema.parse(await rotated.json());
    if (!secret) throw new Error("no secret was answered");
    secretsGiven.push(secret);
    expect(secret).not.toBe(old);
    expect((await deliver(hookId, "{}", { secret: old, event: "ping" })).status).toBe(401);
    expect((await deliver(hookId, "{}", { secret, event: "ping" })).status).toBe(200);
  });

  it("refuses to switch on for an application that is not built from GitHub, and a reader's change", async () => {
    const image = await imageApplication();
    const response = await call("PUT", deployOnPushPaths.settings(t(), environmentId, image.id), {
      enabled: true,
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      fieldErrors: { enabled: [deployOnPushMessages.notGitHub] },
    });

    const application = await githubApplication();
    const reader = await api.createUser();
    await api.addMember(reader.id, member.organization.organizationId, "read-only");
    const asReader = (method: string, path: string, json?: unknown) =>
      api.call(method, path, { token: reader.token, json });
    expect(
      (
        await asReader("PUT", deployOnPushPaths.settings(t(), environmentId, application.id), {
          enabled: true,
        })
      ).status,
    ).toBe(403);
    expect(
      (await asReader("GET", deployOnPushPaths.settings(t(), environmentId, application.id))).status,
    ).toBe(200);
    expect(await api.db.select().from(deployHooks).where(eq(deployHooks.resourceId, application.id))).toEqual(
      [],
    );
  });

  it("answers 404 to another tenant for every setting, and stores nothing", async () => {
    const application = await githubApplication();
    await enable(application.id);
    const stranger = await api.createMember();
    const tenant = stranger.organization.tenantId;
    for (const [method, path, body] of [
      ["GET", deployOnPushPaths.settings(tenant, environmentId, application.id)],
      ["PUT", deployOnPushPaths.settings(tenant, environmentId, application.id), { enabled: false }],
      ["POST", deployOnPushPaths.secret(tenant, environmentId, application.id)],
    ] as const) {
      const response = await call(method, path, body, stranger);
      expect(response.status).toBe(404);
    }
    const [hook] = await api.db.select().from(deployHooks).where(eq(deployHooks.resourceId, application.id));
    expect(hook?.enabled).toBe(true);
  });
});

describe("the webhook's signature", () => {
  it("answers a signed ping", async () => {
    const application = await githubApplication();
    const { hookId, secret } = await enable(application.id);
    const body = JSON.stringify({ zen: "Keep it logically awesome.", hook_id: 1 });
    expect(await deliver(hookId, body, { secret, event: "ping" })).toEqual({
      status: 200,
      body: { outcome: "pong", message: "The webhook's secret matches: pushes can deploy." },
    });
  });

  it("refuses an unsigned, a wrongly signed or a tampered payload: 401, nothing queued, logged without the secret", async () => {
    const application = await githubApplication();
    const { hookId, secret } = await enable(application.id);
    const body = JSON.stringify(pushEvent());
    warnings.mockClear();
    const cases = [
      [{}, deployOnPushMessages.unsigned],
      [{ secret: "not-the-secret" }, deployOnPushMessages.badSignature],
      // Its last hex digit changed (to "1" when it is "0", else "0"): always a different signature.
      [
        { signature: signatureOf(secret, body).replace(/.$/, (last) => (last === "0" ? "1" : "0")) },
        deployOnPushMessages.badSignature,
      ],
      [{ signature: signatureOf(secret, `${body} `) }, deployOnPushMessages.badSignature],
      [{ signature: `sha1=${"0".repeat(40)}` }, deployOnPushMessages.badSignature],
    ] as const;
    for (const [options, message] of cases) {
      expect(await deliver(hookId, body, options)).toEqual({
        status: 401,
        body: { message, code: apiErrorCodes.unauthorized },
      });
    }
    expect(await deployJobsOf(application.id)).toEqual([]);
    expect(
      await api.db.select().from(deployPushes).where(eq(deployPushes.resourceId, application.id)),
    ).toEqual([]);
    const logged = warnings.mock.calls.flat().join("\n");
    expect(warnings).toHaveBeenCalledTimes(cases.length);
    expect(logged).toContain(`to hook ${hookId}: ${deployOnPushMessages.badSignature}`);
    expect(logged).not.toContain(signatureOf(secret, body));
  });

  it("answers a hook that does not exist, or another application's, exactly like a wrong signature", async () => {
    const application = await githubApplication();
    const { hookId, secret } = await enable(application.id);
    const other = await githubApplication();
    const { secret: otherSecret } = await enable(other.id);
    const body = JSON.stringify(pushEvent());
    const wrong = await deliver(hookId, body, { secret: otherSecret });
    for (const address of [randomUUID(), application.id, "not-a-hook"]) {
      expect(await deliver(address, body, { secret })).toEqual(wrong);
    }
    expect(wrong.status).toBe(401);
    expect(await deployJobsOf(application.id)).toEqual([]);
  });
});

describe("a signed push", () => {
  it("queues one deployment recording the commit and its message", async () => {
    const application = await githubApplication();
    const { hookId, secret } = await enable(application.id);
    const { status, answer, sha } = await push(hookId, secret);
    expect(status).toBe(202);
    expect(answer).toMatchObject({
      outcome: "deployment-queued",
      message: `Commit ${sha.slice(0, 7)} on main: Fix the header. Deployment queued.`,
    });
    const [deployment] = await deploymentsOf(application.id);
    expect(deployment).toMatchObject({
      id: answer.historyId,
      actor: "octocat (GitHub push)",
      message: `Commit ${sha.slice(0, 7)} on main: Fix the header`,
    });
    expect((await pushedCommitOf(api.db, deployment?.id ?? ""))?.sha).toBe(sha);
    const [row] = await api.db.select().from(resources).where(eq(resources.id, application.id));
    expect(row).toMatchObject({ stage: "STAGE_QUEUED", version: application.version + 1 });

    // The build checks out the pushed commit, not the branch's head.
    expect(await deployedLogOf(application.id)).toContain(
      `Cloning acme/web at main (${sha.slice(0, 7)} Fix the header)`,
    );
    expect(github.requests.map((request) => request.path)).not.toContain("/repos/acme/web/branches/main");
    const settings = deployOnPushResponseSchema.parse(
      await (await call("GET", deployOnPushPaths.settings(t(), environmentId, application.id))).json(),
    );
    expect(settings.deployOnPush?.lastPush).toMatchObject({
      sha,
      message: "Fix the header",
      author: "octocat",
      branch: "main",
      historyId: deployment?.id,
    });
  });

  it("matches a repository named alone in its connection's organization, as the create form chooses it", async () => {
    const application = await githubApplication({ repository: "web" });
    const { hookId, secret, deployOnPush } = await enable(application.id);
    expect(deployOnPush.repository).toBe("acme/web");
    const { status, answer } = await push(hookId, secret);
    expect(status).toBe(202);
    expect(answer.outcome).toBe("deployment-queued");
    const other = await push(hookId, secret, pushEvent({ repository: "elsewhere/web" }));
    expect(other.answer).toMatchObject({
      outcome: "ignored",
      message: "The application builds acme/web, not elsewhere/web.",
    });
  });

  it("takes GitHub's form encoding too", async () => {
    const application = await githubApplication();
    const { hookId, secret } = await enable(application.id);
    const body = new URLSearchParams({ payload: JSON.stringify(pushEvent()) }).toString();
    const delivered = await deliver(hookId, body, {
      secret,
      contentType: "application/x-www-form-urlencoded",
    });
    expect(delivered).toMatchObject({ status: 202, body: { outcome: "deployment-queued" } });
  });

  it("ignores other branches, tags, other repositories, deleted branches, undeployed applications and a switched-off hook", async () => {
    const application = await githubApplication({ branch: "release" });
    const { hookId, secret } = await enable(application.id);
    const deleted = { ...pushEvent({ ref: "refs/heads/release" }), deleted: true, after: "0".repeat(40) };
    const cases = [
      [
        pushEvent({ ref: "refs/heads/main" }),
        "The application deploys the branch release; this push was to refs/heads/main.",
      ],
      [
        pushEvent({ ref: "refs/tags/v1.0.0" }),
        "The application deploys the branch release; this push was to refs/tags/v1.0.0.",
      ],
      [
        pushEvent({ ref: "refs/heads/release", repository: "acme/other" }),
        "The application builds acme/web, not acme/other.",
      ],
      [deleted, "The branch release was deleted."],
    ] as const;
    for (const [event, message] of cases) {
      expect(await push(hookId, secret, event)).toMatchObject({
        status: 202,
        answer: { outcome: "ignored", message },
      });
    }
    const issue = await deliver(hookId, "{}", { secret, event: "issues" });
    expect(issue).toMatchObject({ status: 202, body: { outcome: "ignored" } });

    await call("PUT", deployOnPushPaths.settings(t(), environmentId, application.id), { enabled: false });
    expect(await push(hookId, secret, pushEvent({ ref: "refs/heads/release" }))).toMatchObject({
      status: 202,
      answer: { outcome: "ignored", message: "Deploy on push is off for this application." },
    });

    const draft = await githubApplication({ deployed: false });
    const drafted = await enable(draft.id);
    expect(await push(drafted.hookId, drafted.secret)).toMatchObject({
      answer: {
        outcome: "ignored",
        message: "The application has not been deployed yet: deploy it once from the console.",
      },
    });
    expect(await deployJobsOf(application.id)).toEqual([]);
    expect(await deployJobsOf(draft.id)).toEqual([]);
  });

  it("refuses a signed body that is not a push event", async () => {
    const application = await githubApplication();
    const { hookId, secret } = await enable(application.id);
    for (const body of ["not json", JSON.stringify({ ref: "refs/heads/main" })]) {
      const delivered = await deliver(hookId, body, { secret });
      expect(delivered.status).toBe(400);
      expect(delivered.body).toMatchObject({ message: deployOnPushMessages.notJson });
    }
  });

  it("deploys a redelivered push once", async () => {
    const application = await githubApplication();
    const { hookId, secret } = await enable(application.id);
    const event = pushEvent();
    const delivery = randomUUID();
    expect((await push(hookId, secret, event, delivery)).answer.outcome).toBe("deployment-queued");
    expect((await push(hookId, secret, event, delivery)).answer.outcome).toBe("already-received");
    expect(await deployJobsOf(application.id)).toHaveLength(1);
  });

  it("ignores a captured delivery replayed with a new delivery id: the commit is not deployed again", async () => {
    const application = await githubApplication();
    const { hookId, secret } = await enable(application.id);
    const event = pushEvent();
    expect((await push(hookId, secret, event)).answer.outcome).toBe("deployment-queued");
    await api.engine.runner.runUntilIdle();

    const replayed = await push(hookId, secret, event, randomUUID());
    const short = event.after.slice(0, 7);
    expect(replayed).toMatchObject({
      status: 202,
      answer: {
        outcome: "ignored",
        message: `Ignored: commit ${short} is not newer than the last deployed ${short} for branch main.`,
      },
    });
    await api.engine.runner.runUntilIdle();
    expect(await deploymentsOf(application.id)).toHaveLength(1);
    expect(await deployJobsOf(application.id)).toHaveLength(1);
  });

  it("ignores a replayed push of an older commit once a newer one was pushed", async () => {
    const application = await githubApplication();
    const { hookId, secret } = await enable(application.id);
    const older = pushEvent({ message: "Older" });
    const newer = pushEvent({ message: "Newer" });
    await push(hookId, secret, older);
    await push(hookId, secret, newer);
    await api.engine.runner.runUntilIdle();
    const before = await deploymentsOf(application.id);

    const replayed = await push(hookId, secret, older, randomUUID());
    expect(replayed.answer).toEqual({
      outcome: "ignored",
      message: `Ignored: commit ${older.after.slice(0, 7)} is not newer than the last deployed ${newer.after.slice(0, 7)} for branch main.`,
    });
    await api.engine.runner.runUntilIdle();
    expect(await deploymentsOf(application.id)).toEqual(before);
    const settings = deployOnPushResponseSchema.parse(
      await (await call("GET", deployOnPushPaths.settings(t(), environmentId, application.id))).json(),
    );
    expect(settings.deployOnPush?.lastPush?.sha).toBe(newer.after);
  });
});

describe("the burst rule", () => {
  it("deploys three pushes made while the deployment is queued once, at the newest commit", async () => {
    const application = await githubApplication();
    const { hookId, secret } = await enable(application.id);
    const first = await push(hookId, secret, pushEvent({ message: "First" }));
    const second = await push(hookId, secret, pushEvent({ message: "Second" }));
    const third = await push(hookId, secret, pushEvent({ message: "Third" }));
    expect(first.answer.outcome).toBe("deployment-queued");
    for (const later of [second, third]) {
      expect(later).toMatchObject({
        status: 202,
        answer: { outcome: "deployment-updated", historyId: first.answer.historyId },
      });
    }
    expect(third.answer.message).toBe(
      `Commit ${third.sha.slice(0, 7)} on main: Third. The deployment queued before it deploys this commit instead.`,
    );

    await api.engine.runner.runUntilIdle();
    const deployments = await deploymentsOf(application.id);
    expect(deployments).toHaveLength(1);
    expect(deployments[0]).toMatchObject({
      outcome: "STAGE_COMPLETED",
      message: `Commit ${third.sha.slice(0, 7)} on main: Third`,
    });
    expect((await pushedCommitOf(api.db, deployments[0]?.id ?? ""))?.sha).toBe(third.sha);
    expect(await deployJobsOf(application.id)).toHaveLength(1);
    const pushes = await api.db
      .select({ value: count() })
      .from(deployPushes)
      .where(eq(deployPushes.resourceId, application.id));
    expect(pushes[0]?.value).toBe(3);
  });

  it("deploys the newest of the pushes made while a deployment runs, once it has ended", async () => {
    const application = await githubApplication();
    const { hookId, secret } = await enable(application.id);
    const first = await push(hookId, secret, pushEvent({ message: "First" }));
    // The first deployment has started: its first step ran.
    const [running] = await deployJobsOf(application.id);
    await api.db
      .update(engineJobs)
      .set({ state: "PHASE_0", payload: { ...running?.payload, steps: 1 } })
      .where(eq(engineJobs.id, running?.id ?? ""));

    const second = await push(hookId, secret, pushEvent({ message: "Second" }));
    const third = await push(hookId, secret, pushEvent({ message: "Third" }));
    expect(second.answer).toEqual({
      outcome: "waiting-for-running-deployment",
      message: `Commit ${second.sha.slice(0, 7)} on main: Second. It deploys once the running deployment ends.`,
    });
    expect(third.answer.message).toBe(
      `Commit ${third.sha.slice(0, 7)} on main: Third. It replaces the commit waiting for the running deployment to end.`,
    );
    expect(await deployJobsOf(application.id, PUSH_DEPLOY_JOB_KIND)).toHaveLength(1);

    await api.engine.runner.runUntilIdle();
    const deployments = await deploymentsOf(application.id);
    expect(deployments.map((deployment) => [deployment.message, deployment.outcome])).toEqual([
      [`Commit ${first.sha.slice(0, 7)} on main: First`, "STAGE_COMPLETED"],
      [`Commit ${third.sha.slice(0, 7)} on main: Third`, "STAGE_COMPLETED"],
    ]);
    const waiting = await api.db
      .select()
      .from(engineJobs)
      .where(
        and(eq(engineJobs.kind, PUSH_DEPLOY_JOB_KIND), inArray(engineJobs.status, ["queued", "waiting"])),
      );
    expect(waiting).toEqual([]);
  });
});

describe("a commit asked for by name (the CLI's deploy --ref)", () => {
  const deployCommit = (resourceId: string, ref: unknown, as: TestMember = member) =>
    call("POST", deployOnPushPaths.deployCommit(t(), environmentId, resourceId), { ref }, as);

  it("deploys an older commit by its abbreviated SHA, as the caller, with deploy on push off", async () => {
    const application = await githubApplication();
    const response = await deployCommit(application.id, OLDER_COMMIT.slice(0, 7));
    expect(response.status, await response.clone().text()).toBe(202);
    const answer = deployCommitResponseSchema.parse(await response.json());
    expect(answer).toMatchObject({
      outcome: "deployment-queued",
      commit: { sha: OLDER_COMMIT, message: "Change 5e6f7a8 of web" },
      message: "Commit 5e6f7a8: Change 5e6f7a8 of web. Deployment queued.",
    });
    const [deployment] = await deploymentsOf(application.id);
    expect(deployment).toMatchObject({
      id: answer.historyId,
      message: "Commit 5e6f7a8: Change 5e6f7a8 of web",
    });
    expect(deployment?.actor).not.toContain("GitHub push");
    expect(deployment?.actor).toBe(`Test ${member.user.id}`);
    expect(await hookOfResourceRows(application.id)).toEqual([]);
    const [audited] = await api.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, "services.deploy-commit"), eq(auditEvents.userId, member.user.id)));
    expect(audited).toMatchObject({ environmentId, status: 202 });

    expect(await deployedLogOf(application.id)).toContain(
      "Cloning acme/web at main (5e6f7a8 Change 5e6f7a8 of web)",
    );
  });

  it("deploys a branch's head, and waits for a running deployment like a push", async () => {
    const application = await githubApplication();
    const first = deployCommitResponseSchema.parse(await (await deployCommit(application.id, "main")).json());
    expect(first.outcome).toBe("deployment-queued");
    expect(first.commit.sha).toMatch(/^[0-9a-f]{40}$/);
    expect(first.message).toBe(
      `Commit ${first.commit.sha.slice(0, 7)} on main: Update web on main. Deployment queued.`,
    );
    const [running] = await deployJobsOf(application.id);
    await api.db
      .update(engineJobs)
      .set({ state: "PHASE_0", payload: { ...running?.payload, steps: 1 } })
      .where(eq(engineJobs.id, running?.id ?? ""));
    const second = deployCommitResponseSchema.parse(
      await (await deployCommit(application.id, OLDER_COMMIT)).json(),
    );
    expect(second).toMatchObject({
      outcome: "waiting-for-running-deployment",
      message: "Commit 5e6f7a8: Change 5e6f7a8 of web. It deploys once the running deployment ends.",
    });
    await api.engine.runner.runUntilIdle();
    expect((await deploymentsOf(application.id)).map((deployment) => deployment.outcome)).toEqual([
      "STAGE_COMPLETED",
      "STAGE_COMPLETED",
    ]);
  });

  it("refuses what it cannot deploy in words, recording nothing: unknown refs, images, first deployments, readers, strangers", async () => {
    const application = await githubApplication();
    const recorded = async () =>
      (await api.db.select().from(deployPushes).where(eq(deployPushes.resourceId, application.id))).length;

    const unknown = await deployCommit(application.id, "0badc0de");
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toMatchObject({
      fieldErrors: {
        ref: ['GitHub has no commit, branch or tag "0badc0de" in acme/web, or the token cannot see it.'],
      },
    });
    const malformed = await deployCommit(application.id, "two words");
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toMatchObject({
      fieldErrors: { ref: ["Give a commit SHA (e.g. 1a2b3c4), a branch or a tag"] },
    });

    const image = await imageApplication();
    const ofImage = await deployCommit(image.id, "main");
    expect(ofImage.status).toBe(400);
    expect(await ofImage.json()).toMatchObject({
      fieldErrors: { ref: [deployOnPushMessages.commitNeedsGitHub] },
    });

    const draft = await githubApplication({ deployed: false });
    const first = await deployCommit(draft.id, "main");
    expect(first.status).toBe(409);
    expect(await first.json()).toMatchObject({ message: deployOnPushMessages.neverDeployed });

    const reader = await api.createUser();
    await api.addMember(reader.id, member.organization.organizationId, "read-only");
    expect(
      (
        await api.call("POST", deployOnPushPaths.deployCommit(t(), environmentId, application.id), {
          token: reader.token,
          json: { ref: "main" },
        })
      ).status,
    ).toBe(403);
    const stranger = await api.createMember();
    const foreign = await call(
      "POST",
      deployOnPushPaths.deployCommit(stranger.organization.tenantId, environmentId, application.id),
      { ref: "main" },
      stranger,
    );
    expect(foreign.status).toBe(404);
    expect(await recorded()).toBe(0);
    expect(await deploymentsOf(application.id)).toEqual([]);
  });

  it("says GitHub refused the connection's token, as a 502 naming GitHub", async () => {
    const connectionId = randomUUID();
    await api.db.insert(connections).values({
      id: connectionId,
      organizationId: member.organization.organizationId,
      kind: "VERSION_CONTROL_TYPE_GITHUB",
      name: uniqueName("github-expired"),
      method: "token",
      fields: { BASE_URL: github.url, ORGANIZATION: "acme" },
      ...sealSecrets(api.secrets, connectionId, { TOKEN: "revoked-token" }),
      status: "VERIFIED",
    });
    const application = await githubApplication();
    const config = application.config as ApplicationConfig;
    await api.db
      .update(resources)
      .set({ config: { ...config, source: { ...config.source, connectionId } } })
      .where(eq(resources.id, application.id));
    const response = await deployCommit(application.id, "main");
    expect(response.status).toBe(502);
    expect(((await response.json()) as { message: string }).message).toMatch(
      /^GitHub \(.+\) refused the token/,
    );
  });
});

async function hookOfResourceRows(resourceId: string) {
  return api.db.select().from(deployHooks).where(eq(deployHooks.resourceId, resourceId));
}
