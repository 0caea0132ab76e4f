import { execFile } from "node:child_process";
import { mkdtemp, readFile, stat } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { serve, type ServerType } from "@hono/node-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  apiTokenErrorMessages,
  apiTokenPaths,
  createdApiTokenSchema,
  serviceAccountSchema,
} from "#contract/api-tokens";
import { defaultApplicationConfig, type ApplicationConfig } from "#contract/application-config";
import { auditPaths } from "#contract/audit";
import { resourceResponseSchema, servicePaths } from "#contract/services";
import { sealSecrets } from "../platform/connections/records";
import { connections } from "../platform/db/schema";
import { openTestApi, type TestMember } from "../platform/testing/http-harness";
import {
  startFakeGitHub,
  startFakeRegistry,
  type FakeGitHub,
  type FakeRegistry,
} from "../platform/testing/provider-servers";
import type { Environment } from "./config";
import { runCli } from "./run";

/* The command-line client against the embedded platform, served on a port as in production, its engine running. */
const api = await openTestApi();
let server: ServerType;
let platformUrl: string;
let registry: FakeRegistry;
/** acme/api on GitHub: its branch's head, an older commit, and a commit whose Dockerfile was deleted. */
let github: FakeGitHub;
const OLDER_COMMIT = "5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b1c2d3e4f";
const BROKEN_COMMIT = "bad0bad1bad2bad3bad4bad5bad6bad7bad8bad9";
beforeAll(async () => {
  github = await startFakeGitHub({
    token: "github-token-5678",
    organizations: {
      acme: {
        repositories: [
          {
            name: "api",
            files: { Dockerfile: "FROM node:22" },
            commits: { [OLDER_COMMIT]: { Dockerfile: "FROM node:20" }, [BROKEN_COMMIT]: {} },
          },
        ],
      },
    },
  });
  server = serve({ fetch: api.app.fetch, port: 0, hostname: "127.0.0.1" });
  await new Promise((resolve) => server.once("listening", resolve));
  platformUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  registry = await startFakeRegistry({
    username: "deployer",
    token: "registry-token-1234",
    repositories: { "acme/web": ["1.0.0", "1.1.0"] },
  });
  api.engine.runner.start();
});
afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  await registry?.close();
  await github?.close();
  await api.close();
});

type Run = { code: number; stdout: string; stderr: string };

/** Runs a command line as the `cloud-console` process would, its output piped (not a terminal). */
async function cli(
  argv: string[],
  env: Environment,
  { signal, terminal = false }: { signal?: AbortSignal; terminal?: boolean } = {},
) {
  let stdout = "";
  let stderr = "";
  const code = await runCli(argv, {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text), isTTY: terminal },
    env,
    signal,
    pollMs: 20,
  });
  return { code, stdout, stderr } satisfies Run;
}

/** A member's organization with a staging environment, and the variables a pipeline sets to use the CLI. */
async function pipeline(): Promise<{ member: TestMember; env: Environment; environmentId: string }> {
  const member = await api.createMember();
  const environment = await api.createEnvironment(member.organization.tenantId, "staging");
  const env = {
    XDG_CONFIG_HOME: await mkdtemp(path.join(tmpdir(), "cloud-console-")),
    CLOUD_CONSOLE_URL: platformUrl,
    CLOUD_CONSOLE_TOKEN: member.user.token,
    CLOUD_CONSOLE_ORGANIZATION: member.organization.tenantId,
    CLOUD_CONSOLE_ENVIRONMENT: "staging",
  };
  return { member, env, environmentId: environment.id };
}

const app = (source: ApplicationConfig["source"]): ApplicationConfig => ({
  ...defaultApplicationConfig,
  source,
});

/** Creates and deploys an application through the API, as the console would, and waits for its deployment. */
async function createApplication(
  member: TestMember,
  environmentId: string,
  name: string,
  config: ApplicationConfig,
) {
  const response = await api.call("POST", servicePaths.list(member.organization.tenantId, environmentId), {
    token: member.user.token,
    json: { serviceType: "application", name, config, launch: true },
  });
  expect(response.status, await response.clone().text()).toBe(201);
  const { resource } = resourceResponseSchema.parse(await response.json());
  await expect
    .poll(
      async () => {
        const detail = await api.call(
          "GET",
          servicePaths.one(member.organization.tenantId, environmentId, resource.id),
          { token: member.user.token },
        );
        return resourceResponseSchema.parse(await detail.json()).resource.stage;
      },
      { timeout: 15_000 },
    )
    .toMatch(/STAGE_COMPLETED|STAGE_FAILED/);
  return resource;
}

/** A verified connection of the member's organization to one of the test servers, its token sealed. */
async function connection(
  member: TestMember,
  kind: "DOCKER" | "VERSION_CONTROL_TYPE_GITHUB",
  fields: Record<string, string>,
  token: string,
) {
  const id = crypto.randomUUID();
  await api.db.insert(connections).values({
    id,
    organizationId: member.organization.organizationId,
    kind,
    name: `${kind.toLowerCase()}-${id.slice(0, 6)}`,
    method: "token",
    fields,
    ...sealSecrets(api.secrets, id, { TOKEN: token }),
    status: "VERIFIED",
  });
  return id;
}

const registryConnection = (member: TestMember) =>
  connection(member, "DOCKER", { BASE_URL: registry.url, USERNAME: "deployer" }, "registry-token-1234");
const githubConnection = (member: TestMember) =>
  connection(
    member,
    "VERSION_CONTROL_TYPE_GITHUB",
    { BASE_URL: github.url, ORGANIZATION: "acme" },
    "github-token-5678",
  );

describe("cloud-console login", () => {
  it("checks the token, then keeps it in the user's config directory readable by the owner only", async () => {
    const { member, env } = await pipeline();
    const { CLOUD_CONSOLE_TOKEN: token, ...withoutToken } = env;
    const login = await cli(
      [
        "login",
        "--token",
        String(token),
        "--organization",
        member.organization.tenantId,
        "--url",
        platformUrl,
      ],
      { XDG_CONFIG_HOME: env.XDG_CONFIG_HOME },
    );
    expect(login.stderr).toBe("");
    expect(login.code).toBe(0);
    const file = path.join(String(env.XDG_CONFIG_HOME), "cloud-console", "config.json");
    expect(login.stdout).toContain(`Signed in to Organization ${member.organization.name} at ${platformUrl}`);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(JSON.parse(await readFile(file, "utf8"))).toEqual({
      url: platformUrl,
      token,
      organization: member.organization.tenantId,
    });

    // The saved login serves later commands without the variables.
    const listed = await cli(["environments", "list"], {
      XDG_CONFIG_HOME: withoutToken.XDG_CONFIG_HOME,
    });
    expect(listed.code).toBe(0);
    expect(listed.stdout.split("\n")[0]).toMatch(/^NAME\s+STAGE\s+SERVICES\s+CLOUD\s+REGION\s+ID$/);
    expect(listed.stdout).toMatch(/^staging\s+/m);
  });

  it("refuses a bad token, saving nothing, and says what to do", async () => {
    const { member, env } = await pipeline();
    const refused = await cli(
      [
        "login",
        "--token",
        "not-a-token",
        "--organization",
        member.organization.tenantId,
        "--url",
        platformUrl,
      ],
      { XDG_CONFIG_HOME: env.XDG_CONFIG_HOME },
    );
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(
      /^Error: The platform refused the token: .+\. Run `cloud-console login --token <token>` with a valid token or set CLOUD_CONSOLE_TOKEN/,
    );
    await expect(
      stat(path.join(String(env.XDG_CONFIG_HOME), "cloud-console", "config.json")),
    ).rejects.toThrow();
  });
});

describe("reads", () => {
  it("lists environments and services, as JSON with --json", async () => {
    const { member, env, environmentId } = await pipeline();
    await createApplication(member, environmentId, "web", app({ kind: "image", image: "nginx:1.27" }));
    const environments = await cli(["environments", "list", "--json"], env);
    expect(environments.code).toBe(0);
    expect(JSON.parse(environments.stdout)).toEqual([
      expect.objectContaining({ id: environmentId, name: "staging", serviceCount: 1 }),
    ]);
    const services = await cli(["services", "list", "--json"], env);
    expect(JSON.parse(services.stdout)).toEqual([
      expect.objectContaining({ name: "web", serviceType: "application", stage: "STAGE_COMPLETED" }),
    ]);
    const table = await cli(["services", "list"], env);
    expect(table.stdout).toMatch(/^web\s+application\s+COMPLETED\s+[0-9a-f-]{36}$/m);
  });

  it("sets variables and lists them, secrets masked", async () => {
    const { env } = await pipeline();
    const set = await cli(["variables", "set", "GREETING=hello=world", "LEVEL=debug"], env);
    expect(set.code).toBe(0);
    expect(set.stdout).toContain("Set GREETING, LEVEL in staging");
    await cli(["variables", "set", "API_KEY=s3cret", "--secret"], env);
    const listed = JSON.parse((await cli(["variables", "list", "--json"], env)).stdout) as {
      name: string;
      value: string;
      secret: boolean;
    }[];
    expect(listed.map(({ name, value, secret }) => ({ name, value, secret }))).toEqual(
      expect.arrayContaining([
        { name: "GREETING", value: "hello=world", secret: false },
        { name: "LEVEL", value: "debug", secret: false },
        { name: "API_KEY", value: expect.not.stringContaining("s3cret"), secret: true },
      ]),
    );
  });
});

describe("cloud-console deploy", () => {
  it("deploys an image, waits for it to run and exits 0, in plain lines when piped", async () => {
    const { member, env, environmentId } = await pipeline();
    await createApplication(member, environmentId, "web", app({ kind: "image", image: "nginx:1.27" }));
    const deployed = await cli(["deploy", "web", "--image", "nginx:1.28"], env);
    expect(deployed.stderr).not.toContain("\r");
    expect(deployed.stderr.split("\n")[0]).toBe("Deploying nginx:1.28 to web in staging…");
    expect(deployed.stdout).toBe("Deployed nginx:1.28 to web in staging.\n");
    expect(deployed.code).toBe(0);
    const services = JSON.parse((await cli(["services", "list", "--json"], env)).stdout) as { id: string }[];
    const detail = await api.call(
      "GET",
      servicePaths.one(member.organization.tenantId, environmentId, services[0]?.id ?? ""),
      {
        token: member.user.token,
      },
    );
    const { resource } = resourceResponseSchema.parse(await detail.json());
    expect(resource.config.source).toEqual({ kind: "image", image: "nginx:1.28" });

    // On a terminal the progress line rewrites itself.
    const onTerminal = await cli(["deploy", "web", "--image", "nginx:1.29"], env, { terminal: true });
    expect(onTerminal.code).toBe(0);
    const clearLine = "\r\u001b[2K";
    const updates = onTerminal.stderr.split(clearLine);
    expect(updates[0]).toBe("");
    expect(updates[1]?.replace(/\n$/, "")).toBe("Deploying nginx:1.29 to web in staging…");
    expect(updates.slice(2).every((update) => !update.slice(0, -1).includes("\n"))).toBe(true);
    expect(onTerminal.stderr.endsWith("\n")).toBe(true);

    // The same image again redeploys it (the tag may point elsewhere now).
    const again = await cli(["deploy", "web", "--image", "nginx:1.29", "--json"], env);
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toEqual({
      outcome: "deployed",
      service: "web",
      environment: "staging",
      image: "nginx:1.29",
    });
  });

  it("exits 2 when the deployment failed and nothing runs", async () => {
    const { member, env, environmentId } = await pipeline();
    const unhealthy = {
      ...app({ kind: "image", image: "nginx:1.27" }),
      healthCheck: { ...defaultApplicationConfig.healthCheck, path: "/unhealthy" },
    };
    await createApplication(member, environmentId, "web", unhealthy);
    const failed = await cli(["deploy", "web", "--image", "nginx:1.28"], env);
    expect(failed.code).toBe(2);
    expect(failed.stdout).toBe("");
    expect(failed.stderr).toContain(
      "Deployment of nginx:1.28 to web failed: The new pods never became healthy (Readiness probe failed: HTTP probe failed with statuscode: 503)",
    );
    expect(failed.stderr).toContain("See `cloud-console logs web`.");
  });

  it("exits 3 when the deployment failed and the previous version still runs", async () => {
    const { member, env, environmentId } = await pipeline();
    const connectionId = await registryConnection(member);
    await createApplication(
      member,
      environmentId,
      "web",
      app({ kind: "registry", connectionId, repository: "acme/web", tag: "1.0.0" }),
    );
    const deployed = await cli(["deploy", "web", "--image", "acme/web:1.1.0"], env);
    expect(deployed.code, deployed.stderr).toBe(0);
    const missing = await cli(["deploy", "web", "--image", "9.9.9", "--json"], env);
    expect(missing.code).toBe(3);
    expect(JSON.parse(missing.stdout)).toMatchObject({
      outcome: "rolled-back",
      image: "9.9.9",
      runningVersion: 2,
      message: expect.stringContaining("manifest unknown"),
    });
    expect(missing.stderr).toContain("Deployment of 9.9.9 to web failed and was rolled back");
    expect(missing.stderr).toMatch(/Version 2 \(.*acme\/web:1\.1\.0.*\) still runs/);
  });
});

describe("cloud-console deploy --ref", () => {
  const githubApp = (connectionId: string) =>
    app({
      kind: "github",
      connectionId,
      repository: "api",
      branch: "main",
      dockerfilePath: "Dockerfile",
      buildContext: ".",
    });

  it("builds a commit of a GitHub application by its SHA or a branch, and says which it deployed", async () => {
    const { member, env, environmentId } = await pipeline();
    await createApplication(member, environmentId, "api", githubApp(await githubConnection(member)));
    const deployed = await cli(["deploy", "api", "--ref", OLDER_COMMIT.slice(0, 7)], env);
    expect(deployed.code, deployed.stderr).toBe(0);
    expect(deployed.stderr.split("\n")[0]).toBe("Deploying api at 5e6f7a8 to api in staging…");
    expect(deployed.stdout).toBe("Deployed api at 5e6f7a8 to api in staging.\n");

    const head = await cli(["deploy", "api", "--ref", "main", "--json"], env);
    expect(head.code, head.stderr).toBe(0);
    expect(JSON.parse(head.stdout)).toEqual({
      outcome: "deployed",
      service: "api",
      environment: "staging",
      commit: expect.stringMatching(/^[0-9a-f]{40}$/),
    });

    const unknown = await cli(["deploy", "api", "--ref", "nope"], env);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('ref: GitHub has no commit, branch or tag "nope" in acme/api');
    const image = await cli(["deploy", "api", "--image", "nginx:1.28"], env);
    expect(image.code).toBe(1);
    expect(image.stderr).toBe(
      "Error: api is built from a GitHub repository: deploy a commit of it with --ref <commit>.\n",
    );
    const both = await cli(["deploy", "api", "--image", "nginx:1.28", "--ref", "main"], env);
    expect(both.code).toBe(1);
    expect(both.stderr).toContain("Give what to deploy, one of: --image <ref>");

    await createApplication(member, environmentId, "web", app({ kind: "image", image: "nginx:1.27" }));
    const ofImage = await cli(["deploy", "web", "--ref", "main"], env);
    expect(ofImage.code).toBe(1);
    expect(ofImage.stderr).toBe(
      "Error: web runs an image, not a GitHub repository's build: deploy it with --image <ref>.\n",
    );
  });

  it("exits 3 when the commit cannot be built and the version before it still runs", async () => {
    const { member, env, environmentId } = await pipeline();
    await createApplication(member, environmentId, "api", githubApp(await githubConnection(member)));
    const broken = await cli(["deploy", "api", "--ref", BROKEN_COMMIT, "--json"], env);
    expect(broken.code, broken.stderr).toBe(3);
    expect(JSON.parse(broken.stdout)).toMatchObject({
      outcome: "rolled-back",
      commit: BROKEN_COMMIT,
      runningVersion: 1,
      message: expect.stringContaining("Dockerfile"),
    });
    expect(broken.stderr).toContain("Deployment of api at bad0bad to api failed and was rolled back");
  });
});

describe("a pipeline with a service account's token", () => {
  it("deploys where its role reaches, is refused elsewhere, and stops working once revoked", async () => {
    // An admin sets the pipeline up through the API: a service account deploying to staging only, and its token.
    const admin = await api.createMember({ role: "admin" });
    const tenantId = admin.organization.tenantId;
    const staging = await api.createEnvironment(tenantId, "staging");
    const production = await api.createEnvironment(tenantId, "production");
    await createApplication(admin, staging.id, "web", app({ kind: "image", image: "nginx:1.27" }));
    const productionWeb = await createApplication(
      admin,
      production.id,
      "web",
      app({ kind: "image", image: "nginx:1.27" }),
    );
    const created = await api.call("POST", apiTokenPaths.serviceAccounts(tenantId), {
      token: admin.user.token,
      json: { name: "ci deployer", roles: [{ role: "developer", environmentIds: [staging.id] }] },
    });
    expect(created.status).toBe(201);
    const account = serviceAccountSchema.parse(await created.json());
    const minted = await api.call("POST", apiTokenPaths.serviceAccountTokens(tenantId, account.id), {
      token: admin.user.token,
      json: { name: "github actions" },
    });
    expect(minted.status).toBe(201);
    const { token, value } = createdApiTokenSchema.parse(await minted.json());
    expect(value).toMatch(/^ccp_[A-Za-z0-9]{36}$/);

    // The pipeline's step: the address and the token in its variables, no login, nothing saved; the token says
    // which organization it is for.
    const env = {
      XDG_CONFIG_HOME: await mkdtemp(path.join(tmpdir(), "cloud-console-")),
      CLOUD_CONSOLE_URL: platformUrl,
      CLOUD_CONSOLE_TOKEN: value,
    };
    const deployed = await cli(["deploy", "web", "--image", "nginx:1.28", "--environment", "staging"], env);
    expect(deployed.stderr).not.toContain("Error");
    expect(deployed.stdout).toBe("Deployed nginx:1.28 to web in staging.\n");
    expect(deployed.code).toBe(0);

    const audit = await api.call("GET", auditPaths.events(tenantId, { action: "services.update" }), {
      token: admin.user.token,
    });
    expect(audit.status).toBe(200);
    const { events } = (await audit.json()) as { events: Record<string, unknown>[] };
    expect(
      events.map(({ userId, userEmail, serviceAccount, tokenName, environmentId, status }) => ({
        userId,
        userEmail,
        serviceAccount,
        tokenName,
        environmentId,
        status,
      })),
    ).toEqual([
      {
        userId: account.id,
        userEmail: null,
        serviceAccount: "ci deployer",
        tokenName: "github actions",
        environmentId: staging.id,
        status: 200,
      },
    ]);

    // Production is not the account's: the platform's refusal, in words, and production's web unchanged.
    const refused = await cli(["deploy", "web", "--image", "nginx:1.28", "--environment", "production"], env);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe("");
    expect(refused.stderr).toBe(
      "Error: Not allowed: the token lacks the permission services.configure here. Ask an administrator of " +
        "the organization for a role that holds it.\n",
    );
    const unchanged = await api.call("GET", servicePaths.one(tenantId, production.id, productionWeb.id), {
      token: admin.user.token,
    });
    expect(resourceResponseSchema.parse(await unchanged.json()).resource.config.source).toEqual({
      kind: "image",
      image: "nginx:1.27",
    });

    // Revoked (as an admin would when it leaks): the next deploy exits 1 saying what to do.
    const revoked = await api.call(
      "DELETE",
      apiTokenPaths.serviceAccountToken(tenantId, account.id, token.id),
      { token: admin.user.token },
    );
    expect(revoked.status).toBe(204);
    const afterRevoke = await cli(
      ["deploy", "web", "--image", "nginx:1.29", "--environment", "staging"],
      env,
    );
    expect(afterRevoke.code).toBe(1);
    expect(afterRevoke.stdout).toBe("");
    expect(afterRevoke.stderr).toBe(
      `Error: The platform refused the token: ${apiTokenErrorMessages.revoked}. Run \`cloud-console login ` +
        "--token <token>` with a valid token or set CLOUD_CONSOLE_TOKEN; tokens expire and can be revoked.\n",
    );
  });
});

describe("cloud-console logs", () => {
  it("prints the last lines, then with --follow the new ones until interrupted", async () => {
    const { member, env, environmentId } = await pipeline();
    await createApplication(member, environmentId, "web", app({ kind: "image", image: "nginx:1.27" }));
    const last = await cli(["logs", "web", "--lines", "5"], env);
    expect(last.code).toBe(0);
    expect(last.stdout.trim().split("\n")).toHaveLength(5);

    const interrupt = new AbortController();
    const following = cli(["logs", "web", "--follow", "--json"], env, { signal: interrupt.signal });
    // A deployment while following: its lines arrive in the follower's output.
    const deployed = await cli(["deploy", "web", "--image", "nginx:1.28"], env);
    expect(deployed.code).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 200));
    interrupt.abort();
    const followed = await following;
    expect(followed.code).toBe(0);
    const lines = followed.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { id: string; message: string });
    expect(lines.map((line) => line.message)).toEqual(
      expect.arrayContaining([expect.stringContaining("nginx:1.28")]),
    );
    const ids = lines.map((line) => Number(line.id));
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe("the cloud-console command", () => {
  const bin = path.resolve("scripts/cloud-console.mjs");

  /** Runs the installed command (package.json "bin") as a process with only these variables. */
  async function spawnCli(argv: string[], env: Environment): Promise<Run> {
    const run = promisify(execFile);
    const given = { NODE_ENV: "test" as const, PATH: process.env.PATH, XDG_CONFIG_HOME: tmpdir(), ...env };
    try {
      const { stdout, stderr } = await run(process.execPath, [bin, ...argv], { env: given });
      return { code: 0, stdout, stderr };
    } catch (error) {
      const failed = error as { code: number; stdout: string; stderr: string };
      return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
    }
  }

  it("says the platform is unreachable and where it looked, exiting 1", async () => {
    // A port nothing listens on any more.
    const closed = serve({ fetch: api.app.fetch, port: 0, hostname: "127.0.0.1" });
    await new Promise((resolve) => closed.once("listening", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const result = await spawnCli(["environments", "list"], {
      CLOUD_CONSOLE_URL: `http://127.0.0.1:${port}`,
      CLOUD_CONSOLE_TOKEN: "a-token",
      CLOUD_CONSOLE_ORGANIZATION: crypto.randomUUID(),
    });
    expect(result).toEqual({
      code: 1,
      stdout: "",
      stderr:
        `Error: Cannot reach the platform at http://127.0.0.1:${port} (ECONNREFUSED). Check the address (--url ` +
        "or CLOUD_CONSOLE_URL) and that the platform is running.\n",
    });
  });

  it("refuses a bad token with what to do, exiting 1", async () => {
    const { env } = await pipeline();
    const result = await spawnCli(["services", "list"], {
      ...env,
      CLOUD_CONSOLE_TOKEN: "expired-or-revoked",
    });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(
      /^Error: The platform refused the token: .+\. Run `cloud-console login --token <token>` with a valid token or set CLOUD_CONSOLE_TOKEN; tokens expire and can be revoked\.\n$/,
    );
  });
});
