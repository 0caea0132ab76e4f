import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiErrorCodes } from "#contract/errors";
import {
  accountPaths,
  cloudConnectionJobSchema,
  generateTerraformPaths,
  initializeAccountResponseSchema,
  toolErrorCodes,
  toolErrorMessages,
} from "#contract/tools";
import { freePort } from "../../tests/setup/moto-server";
import { defaultTerraformConfig } from "../lib/config";
import { cloudConnectionJobs, toolAccounts } from "../db/schema";
import { readArchive } from "../terraform/archive";
import { memoryArchiveStore } from "../terraform/archive-store";
import { createTerraformJobs, MAX_ACTIVE_JOBS_PER_USER, type TerraformJobs } from "../terraform/jobs";
import { createApiApp } from "./app";
import { createFilesApp } from "./files";
import { openTestApi, testPlatformConfig, type TestApi, type TestUser } from "../testing/http-harness";

let api: TestApi;
let clock: Date;
let jobs: TerraformJobs;
let app: ReturnType<typeof createApiApp>;
let files: ReturnType<typeof createFilesApp>;
const closeLater: TerraformJobs[] = [];

function call(method: string, path: string, { token, json }: { token?: string; json?: unknown } = {}) {
  const headers: Record<string, string> = { Accept: "application/json" };
  if (token) headers.Authorization = `Bearer ${token}`;
  if (json !== undefined) headers["Content-Type"] = "application/json";
  return app.request(`/api${path}`, {
    method,
    headers,
    body: json === undefined ? undefined : JSON.stringify(json),
  });
}

async function initializedUser(): Promise<TestUser> {
  const user = await api.createUser();
  expect((await call("POST", accountPaths.initialize(), { token: user.token })).status).toBe(201);
  return user;
}

async function createJob(
  user: TestUser,
  json: unknown = { awsAccountID: 123456789012, awsAccountRegion: "eu-west-1" },
) {
  return call("POST", generateTerraformPaths.create(), { token: user.token, json });
}

beforeAll(async () => {
  api = await openTestApi();
  clock = new Date("2026-03-01T10:00:00Z");
  jobs = createTerraformJobs({
    db: api.db,
    config: api.config,
    store: memoryArchiveStore(),
    now: () => clock,
  });
  closeLater.push(jobs);
  app = createApiApp({ db: api.db, config: api.config, jwks: api.tokens.jwks, terraformJobs: jobs });
  files = createFilesApp({ jobs, db: api.db, engine: api.engine });
});
afterAll(async () => {
  await Promise.all(closeLater.map((runner) => runner.close()));
  await api.close();
});

describe("POST /api/account/initialize-account", () => {
  it("creates the caller's tool account once and answers it again after", async () => {
    const user = await api.createUser();
    const first = await call("POST", accountPaths.initialize(), { token: user.token });
    expect(first.status).toBe(201);
    const { account } = initializeAccountResponseSchema.parse(await first.json());
    expect(account).toEqual({ userId: user.id, email: user.email, initializedAt: expect.any(String) });
    const again = await call("POST", accountPaths.initialize(), { token: user.token });
    expect(again.status).toBe(200);
    expect(initializeAccountResponseSchema.parse(await again.json()).account).toEqual(account);
    // The second call changed nothing: still one record, with the first call's time.
    const rows = await api.db.select().from(toolAccounts).where(eq(toolAccounts.userId, user.id));
    expect(rows).toEqual([expect.objectContaining({ initializedAt: new Date(account.initializedAt) })]);
  });
});

describe("POST /api/v2/tools/generate-terraform", () => {
  it("asks for an initialized account first", async () => {
    const user = await api.createUser();
    const response = await createJob(user);
    expect(response.status).toBe(409);
    expect(await response.json()).toEqual({
      message: toolErrorMessages.accountNotInitialized,
      code: toolErrorCodes.accountNotInitialized,
    });
  });

  it.each([
    ["missing", null],
    ["too many digits", 1_000_000_000_000],
    ["a fraction", 12345678901.5],
    ["a negative number", -1],
    ["text", "123456789012"],
  ])("rejects an account id that is %s with the 12-digit message", async (_case, awsAccountID) => {
    const user = await initializedUser();
    const response = await createJob(user, { awsAccountID, awsAccountRegion: "eu-west-1" });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      message: "Value must be a 12-digit number.",
      code: apiErrorCodes.validationFailed,
      fieldErrors: { awsAccountID: ["Value must be a 12-digit number."] },
    });
  });

  it("rejects a region outside the catalogue", async () => {
    const user = await initializedUser();
    const response = await createJob(user, { awsAccountID: 123456789012, awsAccountRegion: "mars-north-1" });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ fieldErrors: { awsAccountRegion: expect.any(Array) } });
  });

  it("creates an INITIATING job with a CloudFormation quick-create link and its own role and external id", async () => {
    const user = await initializedUser();
    const first = cloudConnectionJobSchema.parse(await (await createJob(user)).json());
    const second = cloudConnectionJobSchema.parse(await (await createJob(user)).json());
    expect(first).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      status: "INITIATING",
      details: null,
      redirectURL: expect.stringMatching(
        /^https:\/\/console\.aws\.amazon\.com\/cloudformation\/home\?region=eu-west-1#\/stacks\/quickcreate\?templateURL=/,
      ),
      downloadURL: null,
      downloadURLExpirationTime: 0,
      awsAccountID: "123456789012",
      awsAccountRegion: "eu-west-1",
      roleName: expect.stringMatching(/^CloudConsoleReadOnly-[0-9a-f]{12}$/),
      createdAt: clock.toISOString(),
    });
    const parameters = (job: typeof first) =>
      new URLSearchParams(new URL(job.redirectURL).hash.split("?")[1]);
    expect(parameters(first).get("templateURL")).toBe(
      "http://platform.test/files/cloud-connection/read-only-role.template.json",
    );
    expect(parameters(first).get("param_RoleName")).toBe(first.roleName);
    expect(parameters(first).get("param_ExternalId")).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(parameters(second).get("param_ExternalId")).not.toBe(parameters(first).get("param_ExternalId"));
    expect(second.roleName).not.toBe(first.roleName);
  });

  it("pads an account id that starts with zeros back to 12 digits", async () => {
    const user = await initializedUser();
    const job = cloudConnectionJobSchema.parse(
      await (await createJob(user, { awsAccountID: 12345678901, awsAccountRegion: "us-east-1" })).json(),
    );
    expect(job.awsAccountID).toBe("012345678901");
  });

  it(`refuses more than ${MAX_ACTIVE_JOBS_PER_USER} unfinished jobs per user`, async () => {
    const user = await initializedUser();
    const unfinished = Array.from({ length: MAX_ACTIVE_JOBS_PER_USER }, (_, index) => ({
      userId: user.id,
      awsAccountId: "123456789012",
      awsRegion: "eu-west-1",
      scanner: "assume-role",
      externalId: `external-${index}`,
      roleName: `CloudConsoleReadOnly-${index}`,
      trustedAccountId: "123456789012",
      redirectUrl: "https://console.aws.amazon.com/cloudformation/home",
      status: "INITIATING",
    }));
    await api.db.insert(cloudConnectionJobs).values(unfinished);
    const response = await createJob(user);
    expect(response.status).toBe(429);
    expect(await response.json()).toEqual({
      message: toolErrorMessages.tooManyActiveJobs(MAX_ACTIVE_JOBS_PER_USER),
      code: toolErrorCodes.tooManyActiveJobs,
    });
  });

  it("answers 503 when the platform cannot read its own AWS identity", async () => {
    const unreachable = `http://127.0.0.1:${await freePort()}`;
    const config = testPlatformConfig({
      terraform: { ...defaultTerraformConfig, scanner: "assume-role", awsEndpoint: unreachable },
    });
    const runner = createTerraformJobs({ db: api.db, config, store: memoryArchiveStore() });
    closeLater.push(runner);
    const offline = createApiApp({ db: api.db, config, jwks: api.tokens.jwks, terraformJobs: runner });
    const user = await initializedUser();
    const response = await offline.request(`/api${generateTerraformPaths.create()}`, {
      method: "POST",
      headers: { Authorization: `Bearer ${user.token}`, "Content-Type": "application/json" },
      body: JSON.stringify({ awsAccountID: 123456789012, awsAccountRegion: "eu-west-1" }),
    });
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({
      message: expect.stringMatching(/^The platform could not read its own AWS identity: /),
    });
  });
});

describe("GET /api/v2/tools/generate-terraform/:jobId and the signed download", () => {
  it("shows the creator the demo job completing, and serves the archive until the link expires", async () => {
    const user = await initializedUser();
    const created = cloudConnectionJobSchema.parse(await (await createJob(user)).json());
    await jobs.settled(created.id);

    const response = await call("GET", generateTerraformPaths.one(created.id), { token: user.token });
    expect(response.status).toBe(200);
    const job = cloudConnectionJobSchema.parse(await response.json());
    const expiry = clock.getTime() / 1000 + defaultTerraformConfig.downloadTtlSeconds;
    expect(job).toMatchObject({ status: "COMPLETED", details: null, downloadURLExpirationTime: expiry });
    const link = new URL(job.downloadURL ?? "");
    expect(link.origin).toBe("http://platform.test");
    expect(link.pathname).toBe(`/files/terraform/${created.id}.zip`);
    expect(link.searchParams.get("expires")).toBe(String(expiry));

    const download = await files.request(`${link.pathname}${link.search}`);
    expect(download.status).toBe(200);
    expect(download.headers.get("Content-Disposition")).toBe(
      'attachment; filename="terraform-123456789012-eu-west-1.zip"',
    );
    const archive = readArchive(new Uint8Array(await download.arrayBuffer()));
    expect(archive["terraform-123456789012-eu-west-1/README.md"]).toContain("**Demo inventory.**");
    expect(archive["terraform-123456789012-eu-west-1/vpc/provider.tf"]).toContain(
      'region              = "eu-west-1"',
    );

    const tampered = new URL(link);
    tampered.searchParams.set("expires", String(expiry + 3600));
    expect((await files.request(`${tampered.pathname}${tampered.search}`)).status).toBe(403);

    clock = new Date(expiry * 1000);
    const expired = await files.request(`${link.pathname}${link.search}`);
    expect(expired.status).toBe(410);
    expect(await expired.json()).toEqual({
      message: toolErrorMessages.downloadExpired,
      code: toolErrorCodes.downloadExpired,
    });
    // The expired archive is removed; the link keeps answering 410.
    await jobs.sweepExpiredArchives();
    expect((await files.request(`${link.pathname}${link.search}`)).status).toBe(410);
    clock = new Date("2026-03-01T10:00:00Z");
  });

  it("answers the same 404 for another user's job, an unknown id and a malformed id", async () => {
    const owner = await initializedUser();
    const stranger = await initializedUser();
    const created = cloudConnectionJobSchema.parse(await (await createJob(owner)).json());
    for (const path of [
      generateTerraformPaths.one(created.id),
      generateTerraformPaths.one("00000000-0000-4000-8000-000000000000"),
      generateTerraformPaths.one("not-a-job"),
    ]) {
      const response = await call("GET", path, { token: stranger.token });
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({
        message: toolErrorMessages.jobNotFound,
        code: apiErrorCodes.notFound,
      });
    }
  });

  it("serves the role's CloudFormation template without a token", async () => {
    const response = await files.request("/files/cloud-connection/read-only-role.template.json");
    expect(response.status).toBe(200);
    const template = (await response.json()) as {
      Resources: {
        ReadOnlyRole: {
          Properties: { Policies: { PolicyDocument: { Statement: { Action: string[] }[] } }[] };
        };
      };
    };
    const actions =
      template.Resources.ReadOnlyRole.Properties.Policies[0]?.PolicyDocument.Statement[0]?.Action ?? [];
    expect(actions).toContain("ec2:DescribeVpcs");
    expect(actions.every((action) => /:(Describe|List|Get)[A-Za-z]*$/.test(action))).toBe(true);
    expect(actions).not.toContain("s3:GetObject");
    // Secrets are listed by their metadata only; their values are never read.
    expect(actions).toEqual(
      expect.arrayContaining([
        "elasticache:DescribeReplicationGroups",
        "secretsmanager:ListSecrets",
        "eks:DescribeNodegroup",
        "ecs:DescribeTaskDefinition",
      ]),
    );
    expect(actions).not.toContain("secretsmanager:GetSecretValue");
  });

  it("answers 404 for a download path that is not an archive", async () => {
    expect((await files.request("/files/terraform/whatever.txt")).status).toBe(404);
  });
});
