import { randomUUID } from "node:crypto";
import { and, asc, eq, like } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defaultApplicationConfig } from "#contract/application-config";
import {
  previewListSchema,
  previewMessages,
  previewPaths,
  previewResponseSchema,
  previewSettingsChangeResponseSchema,
  previewWebhookAnswerSchema,
  type Preview,
} from "#contract/previews";
import { defaultServiceSettings } from "#contract/services";
import { sealSecrets } from "../connections/records";
import { auditEvents, connections, deployPushes, environments, resourceLogs, resources } from "../db/schema";
import { signatureOf } from "../deploy-on-push/signature";
import { fakeDriver } from "../testing/driver";
import { openTestApi, uniqueName, type TestApi, type TestMember } from "../testing/http-harness";
import { startFakeGitHub, type FakeGitHub } from "../testing/provider-servers";

/** The engine's clock, moved by the idle-expiry test. */
let clock = new Date("2026-03-02T09:00:00.000Z");
let api: TestApi;
let github: FakeGitHub;
beforeAll(async () => {
  api = await openTestApi({}, { driver: fakeDriver(), now: () => clock });
  github = await startFakeGitHub({
    token: "github-token-28",
    organizations: {
      acme: {
        repositories: [
          { name: "web", branches: ["main", "feature"], files: { Dockerfile: "FROM nginx:1.27" } },
        ],
      },
    },
  });
});
afterAll(async () => {
  await github.close();
  await api.close();
});

type Source = Awaited<ReturnType<typeof sourceEnvironment>>;

/** An organization's environment with a database and two applications, one built from acme/web. */
async function sourceEnvironment({ maxPreviews = 3, idleDays = 7, seedCommand = "" } = {}) {
  const member: TestMember = await api.createMember();
  const environment = await api.createEnvironment(member.organization.tenantId);
  const connectionId = randomUUID();
  await api.db.insert(connections).values({
    id: connectionId,
    organizationId: member.organization.organizationId,
    kind: "VERSION_CONTROL_TYPE_GITHUB",
    name: uniqueName("github"),
    method: "token",
    fields: { BASE_URL: github.url, ORGANIZATION: "acme" },
    ...sealSecrets(api.secrets, connectionId, { TOKEN: "github-token-28" }),
    status: "VERIFIED",
  });
  const service = (name: string, serviceType: string, config: Record<string, unknown>) => ({
    environmentId: environment.id,
    name,
    serviceType,
    stage: "STAGE_COMPLETED",
    config,
    settings: defaultServiceSettings,
    deployedAt: new Date("2026-03-01T12:00:00.000Z"),
  });
  const [web, api2, database] = await api.db
    .insert(resources)
    .values([
      service("web", "application", {
        ...defaultApplicationConfig,
        source: {
          kind: "github",
          connectionId,
          repository: "web",
          branch: "main",
          dockerfilePath: "Dockerfile",
          buildContext: ".",
        },
      }),
      service("api", "application", {
        ...defaultApplicationConfig,
        source: { kind: "image", image: "nginx:1.27" },
      }),
      service("db", "database", {}),
    ])
    .returning();
  if (!web || !api2 || !database) throw new Error("services were not created");
  const call = (method: string, path: string, json?: unknown, token = member.user.token) =>
    api.call(method, path, { token, json });
  const response = await call("PUT", previewPaths.settings(member.organization.tenantId, environment.id), {
    enabled: true,
    connectionId,
    repository: "acme/web",
    applicationIds: [web.id],
    namePattern: `{environment}-pr-{number}`,
    maxPreviews,
    idleDays,
    ...(seedCommand ? { seedCommand } : {}),
  });
  expect(response.status).toBe(200);
  const { previewSettings, secret } = previewSettingsChangeResponseSchema.parse(await response.json());
  if (!secret) throw new Error("no secret was answered");
  const webhookId = previewSettings.webhookUrl.split("/").at(-1) ?? "";
  return { member, environment, connectionId, web, database, webhookId, secret, call };
}

let shas = 0;
const nextSha = () => (++shas).toString(16).padStart(40, "c");

function pullRequestEvent(
  action: string,
  number: number,
  { sha = nextSha(), merged = false, repository = "acme/web" } = {},
) {
  return {
    action,
    number,
    pull_request: {
      number,
      title: `Make the header blue (${number})`,
      html_url: `https://github.example/acme/web/pull/${number}`,
      user: { login: "octocat" },
      head: { ref: "feature", sha },
      merged,
      updated_at: new Date(Date.UTC(2026, 2, 2, 9, 0) + shas * 60_000).toISOString(),
    },
    repository: { full_name: repository },
  };
}

async function deliver(
  source: Pick<Source, "webhookId" | "secret">,
  event: unknown,
  { delivery = randomUUID(), signature }: { delivery?: string; signature?: string | null } = {},
) {
  const body = JSON.stringify(event);
  const headers: Record<string, string> = {
    "Content-Type": "application/json",
    "X-GitHub-Event": "pull_request",
    "X-GitHub-Delivery": delivery,
  };
  const signed = signature === undefined ? signatureOf(source.secret, body) : signature;
  if (signed) headers["X-Hub-Signature-256"] = signed;
  const response = await api.app.request(`/api${previewPaths.webhook(source.webhookId)}`, {
    method: "POST",
    headers,
    body,
  });
  const text = await response.text();
  expect(text).not.toContain(source.secret);
  return { status: response.status, body: JSON.parse(text) as unknown };
}

async function deliverAndRun(source: Source, event: unknown, delivery?: string) {
  const { status, body } = await deliver(source, event, { delivery });
  expect(status).toBe(202);
  await api.engine.runner.runUntilIdle();
  return previewWebhookAnswerSchema.parse(body);
}

async function previewsOf(source: Source): Promise<Preview[]> {
  const response = await source.call("GET", previewPaths.list(source.member.organization.tenantId));
  expect(response.status).toBe(200);
  return previewListSchema.parse(await response.json()).previews;
}

const commentsOf = (number: number) =>
  github.comments.filter((comment) => comment.repository === "acme/web" && comment.number === number);

describe("the preview setting", () => {
  it("refuses what cannot work with field errors, and answers the webhook's secret once", async () => {
    const source = await sourceEnvironment();
    const path = previewPaths.settings(source.member.organization.tenantId, source.environment.id);
    const valid = {
      enabled: true,
      connectionId: source.connectionId,
      repository: "acme/web",
      applicationIds: [source.web.id],
      namePattern: "pr-{number}",
      maxPreviews: 2,
      idleDays: 7,
    };
    const refused = async (json: unknown) => {
      const response = await source.call("PUT", path, json);
      expect(response.status).toBe(400);
      return ((await response.json()) as { fieldErrors: Record<string, string[]> }).fieldErrors;
    };
    expect(await refused({ ...valid, namePattern: "pr" })).toEqual({
      namePattern: [previewMessages.namePattern],
    });
    expect(await refused({ ...valid, idleDays: 31 })).toEqual({ idleDays: [previewMessages.idleDays] });
    expect(await refused({ ...valid, seedCommand: "x".repeat(1025) })).toEqual({
      seedCommand: [previewMessages.seedCommand],
    });
    expect(await refused({ ...valid, applicationIds: [source.database.id] })).toEqual({
      applicationIds: [previewMessages.notGitHubApplication("db", "acme/web")],
    });
    expect(await refused({ ...valid, connectionId: randomUUID() })).toEqual({
      connectionId: [previewMessages.notGitHubConnection],
    });
    const again = previewSettingsChangeResponseSchema.parse(
      await (await source.call("PUT", path, valid)).json(),
    );
    expect(again.secret).toBeUndefined();
    expect(again.previewSettings).toMatchObject({
      namePattern: "pr-{number}",
      maxPreviews: 2,
      seedCommand: "",
    });
    const seeded = previewSettingsChangeResponseSchema.parse(
      await (await source.call("PUT", path, { ...valid, seedCommand: "  npm run seed  " })).json(),
    );
    expect(seeded.previewSettings.seedCommand).toBe("npm run seed");

    const reader = await api.createUser();
    await api.addMember(reader.id, source.member.organization.organizationId, "read-only");
    expect((await source.call("PUT", path, valid, reader.token)).status).toBe(403);
    expect((await source.call("GET", path, undefined, reader.token)).status).toBe(200);
  });
});

describe("a pull request's preview", () => {
  it("opens as a clone with fresh data, deploys the head, says so in one comment and a deployment, and goes when closed", async () => {
    const source = await sourceEnvironment();
    const opened = pullRequestEvent("opened", 7);
    const answer = await deliverAndRun(source, opened);
    expect(answer.outcome).toBe("opening");

    const [preview] = await previewsOf(source);
    expect(preview?.message).toBeNull();
    const name = `${source.environment.name}-pr-7`;
    expect(preview).toMatchObject({
      environmentName: name,
      source: { id: source.environment.id, name: source.environment.name },
      pullRequest: {
        number: 7,
        title: "Make the header blue (7)",
        author: "octocat",
        url: opened.pull_request.html_url,
      },
      headSha: opened.pull_request.head.sha,
      state: "READY",
      url: `http://web.${name}.internal`,
    });
    const environmentId = preview?.environmentId ?? "";
    // The preview's own pages say what it is a preview of; the source is the preview of nothing.
    const ofPreview = await source.call(
      "GET",
      previewPaths.ofEnvironment(source.member.organization.tenantId, environmentId),
    );
    expect(previewResponseSchema.parse(await ofPreview.json()).preview).toMatchObject({
      source: { name: source.environment.name },
      pullRequest: { number: 7 },
    });
    const ofSource = await source.call(
      "GET",
      previewPaths.ofEnvironment(source.member.organization.tenantId, source.environment.id),
    );
    expect(previewResponseSchema.parse(await ofSource.json()).preview).toBeNull();
    const cloned = await api.db.select().from(resources).where(eq(resources.environmentId, environmentId));
    expect(cloned.map((row) => [row.name, row.stage]).sort()).toEqual([
      ["api", "STAGE_COMPLETED"],
      ["db", "STAGE_COMPLETED"],
      ["web", "STAGE_COMPLETED"],
    ]);
    // The preview's database is its own, made by its first deployment: never the source's.
    const previewDb = cloned.find((row) => row.name === "db");
    expect(previewDb?.id).not.toBe(source.database.id);
    // The chosen application built the pull request's head, the other kept its configuration.
    const web = cloned.find((row) => row.name === "web");
    expect((web?.config as { source: { branch: string } }).source.branch).toBe("feature");
    const [built] = await api.db
      .select()
      .from(deployPushes)
      .where(eq(deployPushes.resourceId, web?.id ?? ""));
    expect(built?.sha).toBe(opened.pull_request.head.sha);
    // The source was not touched.
    const [sourceWeb] = await api.db.select().from(resources).where(eq(resources.id, source.web.id));
    expect((sourceWeb?.config as { source: { branch: string } }).source.branch).toBe("main");

    const [comment] = commentsOf(7);
    expect(commentsOf(7)).toHaveLength(1);
    expect(comment?.body).toContain(`Ready at http://web.${name}.internal`);
    const deployment = github.deployments.find((one) => one.ref === opened.pull_request.head.sha);
    expect(deployment?.environment).toBe(name);
    expect(deployment?.statuses.map((status) => status.state)).toContain("in_progress");
    expect(deployment?.statuses.at(-1)).toMatchObject({
      state: "success",
      environment_url: `http://web.${name}.internal`,
    });

    // A burst of pushes: the newest commit is what the preview runs, told in the same comment.
    const first = pullRequestEvent("synchronize", 7);
    const second = pullRequestEvent("synchronize", 7);
    expect((await deliver(source, first)).status).toBe(202);
    expect((await deliver(source, second)).status).toBe(202);
    // The older delivery arriving late is not deployed.
    const late = await deliver(source, {
      ...first,
      pull_request: {
        ...first.pull_request,
        head: { ref: "feature", sha: nextSha() },
        updated_at: "2026-03-01T00:00:00.000Z",
      },
    });
    expect(previewWebhookAnswerSchema.parse(late.body).outcome).toBe("ignored");
    await api.engine.runner.runUntilIdle();
    const [pushed] = await previewsOf(source);
    expect(pushed).toMatchObject({ state: "READY", headSha: second.pull_request.head.sha });
    expect(commentsOf(7)).toHaveLength(1);
    expect(commentsOf(7)[0]?.body).toContain(second.pull_request.head.sha.slice(0, 7));
    expect(
      github.deployments.find((one) => one.ref === second.pull_request.head.sha)?.statuses.at(-1)?.state,
    ).toBe("success");

    // The same delivery again does nothing twice.
    const delivery = randomUUID();
    const closed = pullRequestEvent("closed", 7, { sha: second.pull_request.head.sha });
    expect((await deliverAndRun(source, closed, delivery)).outcome).toBe("removing");
    expect((await deliverAndRun(source, closed, delivery)).outcome).toBe("already-received");
    const [removed] = await previewsOf(source);
    expect(removed).toMatchObject({ state: "REMOVED", environmentId: null, message: "#7 was closed." });
    expect(await api.db.select().from(environments).where(eq(environments.id, environmentId))).toEqual([]);
    expect(
      await api.db.select().from(resources).where(eq(resources.environmentId, source.environment.id)),
    ).toHaveLength(3);
    expect(commentsOf(7)).toHaveLength(1);
    expect(commentsOf(7)[0]?.body).toContain("Removed: #7 was closed.");
    expect(
      github.deployments.find((one) => one.ref === second.pull_request.head.sha)?.statuses.at(-1)?.state,
    ).toBe("inactive");

    // Reopened: a new preview environment, the same comment.
    expect((await deliverAndRun(source, pullRequestEvent("reopened", 7))).outcome).toBe("opening");
    const [reopened] = await previewsOf(source);
    expect(reopened?.state).toBe("READY");
    expect(reopened?.environmentId).not.toBe(environmentId);
    expect(commentsOf(7)).toHaveLength(1);

    // Merged: removed as well.
    expect((await deliverAndRun(source, pullRequestEvent("closed", 7, { merged: true }))).outcome).toBe(
      "removing",
    );
    expect((await previewsOf(source))[0]).toMatchObject({ state: "REMOVED", message: "#7 was merged." });

    // The audit log tells the preview's life, GitHub's pull request as the actor.
    const life = await api.db
      .select()
      .from(auditEvents)
      .where(
        and(
          eq(auditEvents.organizationId, source.member.organization.organizationId),
          like(auditEvents.action, "previews.%"),
        ),
      )
      .orderBy(asc(auditEvents.id));
    expect(life.map((event) => event.action)).toEqual([
      "previews.settings-update",
      "previews.opened",
      "previews.ready",
      // Ready again at the pushed head.
      "previews.ready",
      "previews.removed",
      "previews.opened",
      "previews.ready",
      "previews.removed",
    ]);
    expect(life[1]).toMatchObject({ userEmail: "GitHub pull request #7 by octocat", target: name });
  });

  it("refuses unsigned and wrongly signed deliveries, and another organization's webhook does nothing", async () => {
    const source = await sourceEnvironment();
    const other = await sourceEnvironment();
    const event = pullRequestEvent("opened", 11);
    expect((await deliver(source, event, { signature: null })).status).toBe(401);
    expect((await deliver(source, event, { signature: `sha256=${"0".repeat(64)}` })).status).toBe(401);
    // Signed with the other organization's secret, to this one's webhook.
    expect((await deliver({ webhookId: source.webhookId, secret: other.secret }, event)).status).toBe(401);
    // A webhook id that does not exist is answered the same way.
    expect((await deliver({ webhookId: randomUUID(), secret: source.secret }, event)).status).toBe(401);
    await api.engine.runner.runUntilIdle();
    expect(await previewsOf(source)).toEqual([]);
    // The other organization's own delivery makes its preview, of its environment, seen by it alone.
    await deliverAndRun(other, event);
    expect(await previewsOf(source)).toEqual([]);
    const [theirs] = await previewsOf(other);
    expect(theirs?.source.id).toBe(other.environment.id);
    const asStranger = await source.call(
      "GET",
      previewPaths.settings(other.member.organization.tenantId, other.environment.id),
    );
    expect(asStranger.status).toBe(403);
  });

  it("seeds its fresh databases once: the first deployment of the first application built from the pull request, never a later push", async () => {
    const source = await sourceEnvironment({ seedCommand: "npm run seed" });
    await deliverAndRun(source, pullRequestEvent("opened", 41));
    const [preview] = await previewsOf(source);
    expect(preview?.state).toBe("READY");
    const seeding = 'Started container seed: sh -c "npm run seed"';
    const linesOf = async (name: string) => {
      const [row] = await api.db
        .select()
        .from(resources)
        .where(and(eq(resources.environmentId, preview?.environmentId ?? ""), eq(resources.name, name)));
      const lines = await api.db
        .select()
        .from(resourceLogs)
        .where(eq(resourceLogs.resourceId, row?.id ?? ""));
      return lines.map((line) => line.message).filter((message) => message.includes(seeding));
    };
    expect(await linesOf("web")).toHaveLength(1);
    expect(await linesOf("api")).toEqual([]);

    await deliverAndRun(source, pullRequestEvent("synchronize", 41));
    expect((await previewsOf(source))[0]?.state).toBe("READY");
    expect(await linesOf("web")).toHaveLength(1);
  });

  it("fails its first deployment when the seed command fails, and the pull request's comment says so", async () => {
    const source = await sourceEnvironment({ seedCommand: "./seed.sh; exit 4" });
    await deliverAndRun(source, pullRequestEvent("opened", 42));
    const [preview] = await previewsOf(source);
    const reason =
      'web: The seed command (sh -c "./seed.sh; exit 4") exited with code 4. The deployment was rolled back ' +
      "(nothing ran before it).";
    expect(preview).toMatchObject({ state: "FAILED", message: reason });
    expect(commentsOf(42)).toHaveLength(1);
    expect(commentsOf(42)[0]?.body).toContain(reason);
  });

  it("refuses a preview past the limit in plain words on the pull request", async () => {
    const source = await sourceEnvironment({ maxPreviews: 1 });
    await deliverAndRun(source, pullRequestEvent("opened", 21));
    const answer = await deliverAndRun(source, pullRequestEvent("opened", 22));
    expect(answer).toMatchObject({ outcome: "refused", message: previewMessages.limitReached(1) });
    const refused = (await previewsOf(source)).find((preview) => preview.pullRequest.number === 22);
    expect(refused).toMatchObject({ state: "REFUSED", environmentId: null });
    expect(commentsOf(22)).toHaveLength(1);
    expect(commentsOf(22)[0]?.body).toContain(previewMessages.limitReached(1));
  });

  it("is removed once idle past its limit, by the engine's clock", async () => {
    const source = await sourceEnvironment({ idleDays: 2 });
    await deliverAndRun(source, pullRequestEvent("opened", 31));
    const [ready] = await previewsOf(source);
    expect(ready?.state).toBe("READY");
    clock = new Date(clock.getTime() + 24 * 60 * 60 * 1000);
    await api.engine.runner.runUntilIdle();
    expect((await previewsOf(source))[0]?.state).toBe("READY");
    clock = new Date(clock.getTime() + 25 * 60 * 60 * 1000);
    await api.engine.runner.runUntilIdle();
    const [idle] = await previewsOf(source);
    expect(idle).toMatchObject({
      state: "REMOVED",
      environmentId: null,
      message: "Removed after 2 days without a push.",
    });
    expect(
      await api.db
        .select()
        .from(environments)
        .where(and(eq(environments.id, ready?.environmentId ?? ""))),
    ).toEqual([]);
  });
});
