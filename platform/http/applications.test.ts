import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defaultApplicationConfig, type ApplicationConfig } from "#contract/application-config";
import {
  applicationConfigSchema,
  applicationPaths,
  applicationVersionListSchema,
  applicationVersionResponseSchema,
  rollbackResponseSchema,
} from "#contract/applications";
import { apiErrorSchema } from "#contract/error-body";
import {
  loadBalancerListSchema,
  logListSchema,
  resourceResponseSchema,
  servicePaths,
} from "#contract/services";
import { sealSecrets } from "../connections/records";
import {
  startFakeGitHub,
  startFakeRegistry,
  type FakeRegistry,
  type TestServer,
} from "../testing/provider-servers";
import { connections } from "../db/schema";
import { openTestApi, type TestMember } from "../testing/http-harness";

/* Applications (issue 15) over the simulated cloud: sources checked, built or pulled for real against test servers. */
const api = await openTestApi();
let registry: FakeRegistry;
let github: TestServer;
beforeAll(async () => {
  registry = await startFakeRegistry({
    username: "deployer",
    token: "registry-token-1234",
    repositories: { "acme/web": ["1.0.0", "1.1.0"] },
  });
  github = await startFakeGitHub({
    token: "github-token-5678",
    organizations: {
      acme: {
        repositories: [
          {
            name: "web",
            branches: ["main"],
            files: {
              Dockerfile: [
                "FROM node:22-alpine AS build",
                "WORKDIR /app",
                "COPY package*.json ./",
                "RUN npm ci",
                "FROM nginx:1.27",
                "COPY --from=build /app/dist /usr/share/nginx/html",
              ].join("\n"),
            },
          },
        ],
      },
    },
  });
});
afterAll(async () => {
  await Promise.all([registry.close(), github.close()]);
  await api.close();
});

async function setup() {
  const member = await api.createMember();
  const environment = await api.createEnvironment(member.organization.tenantId);
  const t = member.organization.tenantId;
  const call = (method: string, path: string, json?: unknown) =>
    api.call(method, path, { token: member.user.token, json });
  return { member, environment, t, w: environment.id, call };
}

async function addConnection(
  member: TestMember,
  kind: string,
  fields: Record<string, string>,
  secret: Record<string, string>,
) {
  const id = crypto.randomUUID();
  await api.db.insert(connections).values({
    id,
    organizationId: member.organization.organizationId,
    kind,
    name: `${kind.toLowerCase()}-${id.slice(0, 6)}`,
    method: "token",
    fields,
    ...sealSecrets(api.secrets, id, secret),
    status: "VERIFIED",
  });
  return id;
}

const app = (overrides: Partial<ApplicationConfig>): ApplicationConfig => ({
  ...defaultApplicationConfig,
  ...overrides,
});

async function deploy(
  call: Awaited<ReturnType<typeof setup>>["call"],
  t: string,
  w: string,
  name: string,
  config: ApplicationConfig,
) {
  const response = await call("POST", servicePaths.list(t, w), {
    serviceType: "application",
    name,
    config,
    launch: true,
  });
  expect(response.status, await response.clone().text()).toBe(201);
  const { resource } = resourceResponseSchema.parse(await response.json());
  await api.engine.runner.runUntilIdle();
  const detail = await call("GET", servicePaths.one(t, w, resource.id));
  return resourceResponseSchema.parse(await detail.json()).resource;
}

async function logsOf(call: Awaited<ReturnType<typeof setup>>["call"], t: string, w: string, id: string) {
  const response = await call("GET", servicePaths.logs(t, w, id, { limit: 1000 }));
  return logListSchema.parse(await response.json()).logs.map((line) => line.message);
}

describe("the application's configuration", () => {
  it("checks each source's shape with messages keyed by field", () => {
    const errors = (config: unknown) => {
      const result = applicationConfigSchema.safeParse(config);
      return result.success
        ? {}
        : Object.fromEntries(result.error.issues.map((i) => [i.path.join("."), i.message]));
    };
    expect(errors(app({ source: { kind: "image", image: "nginx:1.27" } }))).toEqual({});
    expect(errors(app({ source: { kind: "image", image: "ghcr.io/org/app:tag" } }))).toEqual({});
    expect(errors(app({ source: { kind: "image", image: "Nginx:latest tag" } }))["source.image"]).toBe(
      "Image must be an image reference such as nginx:1.27 or ghcr.io/org/app:tag",
    );
    expect(
      errors(app({ source: { kind: "registry", connectionId: "x", repository: "Acme/Web", tag: "" } })),
    ).toMatchObject({
      "source.connectionId": "Choose a container registry connection",
      "source.repository": expect.stringContaining("Repository must be a registry repository"),
      "source.tag": "Tag is a required field",
    });
    expect(
      errors(
        app({
          source: {
            kind: "github",
            connectionId: crypto.randomUUID(),
            repository: "acme/web",
            branch: "main",
            dockerfilePath: "/etc/Dockerfile",
            buildContext: "../up",
          },
        }),
      ),
    ).toMatchObject({
      "source.dockerfilePath": expect.stringContaining("no leading / or .."),
      "source.buildContext": expect.stringContaining("no leading / or .."),
    });
    const helm = (values: string) =>
      errors(
        app({
          source: {
            kind: "helm",
            chartRepositoryId: crypto.randomUUID(),
            chart: "nginx",
            version: "1.2.3",
            values,
          },
        }),
      );
    expect(helm("replicaCount: 2\nimage:\n  tag: 1.27\n")).toEqual({});
    expect(helm("replicaCount: 2\n  image: [1,\n")["source.values"]).toMatch(/^Line \d+, column \d+: .+$/);
    expect(helm("- a\n- b\n")["source.values"]).toContain("Values must be a mapping");
    expect(
      errors(app({ source: { kind: "image", image: "nginx:1.27" }, cpu: "0.25", memoryMb: 8192 as never })),
    ).toEqual({});
    expect(
      errors(
        app({
          source: { kind: "image", image: "nginx:1.27" },
          domain: { host: "app.example.com", certificateId: "" },
        }),
      ),
    ).toEqual({ "domain.certificateId": "Choose the TLS certificate that covers the domain" });
    expect(
      errors(
        app({
          source: { kind: "image", image: "nginx:1.27" },
          scaling: { mode: "autoscaling", minReplicas: 4, maxReplicas: 2, targetCpuPercent: 60 },
        }),
      ),
    ).toEqual({ "scaling.maxReplicas": "Maximum replicas must be at least the minimum" });
  });
});

describe("POST infrastructure with an application", () => {
  it("refuses references outside the organization or environment, and sidecars without the flag", async () => {
    const { t, w, call } = await setup();
    const other = await setup();
    const othersRegistry = await addConnection(
      other.member,
      "DOCKER",
      { BASE_URL: registry.url, USERNAME: "deployer" },
      { TOKEN: "registry-token-1234" },
    );
    const before = await api.countRows();
    const refused = await call("POST", servicePaths.list(t, w), {
      serviceType: "application",
      name: "web",
      launch: true,
      config: app({
        source: { kind: "registry", connectionId: othersRegistry, repository: "acme/web", tag: "1.0.0" },
        envvars: [
          { kind: "attribute", name: "DATABASE_URL", service: "orders-db", attribute: "connectionString" },
        ],
        sidecars: [
          { name: "proxy", image: "envoyproxy/envoy:v1.31", cpu: "0.25", memoryMb: 512, command: "" },
        ],
      }),
    });
    expect(refused.status).toBe(400);
    expect(apiErrorSchema.parse(await refused.json()).fieldErrors).toEqual({
      "config.source.connectionId": ["Choose a connection of this organization"],
      "config.envvars.0.service": ["No service of this environment has this name"],
      "config.sidecars": ["Sidecar containers need the multi-container feature"],
    });
    expect(await api.countRows()).toEqual(before);

    await api.setFeatureFlag(t, "multi-container", true);
    const withSidecar = await deploy(
      call,
      t,
      w,
      "web",
      app({
        source: { kind: "image", image: "nginx:1.27" },
        sidecars: [
          { name: "proxy", image: "envoyproxy/envoy:v1.31", cpu: "0.25", memoryMb: 512, command: "" },
        ],
      }),
    );
    expect(withSidecar.stage).toBe("STAGE_COMPLETED");
    expect(await logsOf(call, t, w, withSidecar.id)).toContainEqual(
      expect.stringMatching(/Started container proxy/),
    );
  });

  it("reads an application sent in the old { image } shape as a public image", async () => {
    const { t, w, call } = await setup();
    const response = await call("POST", servicePaths.list(t, w), {
      serviceType: "application",
      name: "legacy",
      config: { image: "ghcr.io/acme/web:1.4.2" },
      launch: false,
    });
    expect(response.status).toBe(201);
    const { resource } = resourceResponseSchema.parse(await response.json());
    expect(resource.config.source).toEqual({ kind: "image", image: "ghcr.io/acme/web:1.4.2" });
  });
});

describe("deploying an application", () => {
  it("builds a GitHub repository's Dockerfile with BuildKit's logs, and fails on a missing Dockerfile", async () => {
    const { member, t, w, call } = await setup();
    const connectionId = await addConnection(
      member,
      "VERSION_CONTROL_TYPE_GITHUB",
      { BASE_URL: github.url, ORGANIZATION: "acme" },
      { TOKEN: "github-token-5678" },
    );
    const source = {
      kind: "github" as const,
      connectionId,
      repository: "web",
      branch: "main",
      dockerfilePath: "Dockerfile",
      buildContext: ".",
    };
    const built = await deploy(call, t, w, "web", app({ source }));
    expect(built.stage).toBe("STAGE_COMPLETED");
    const logs = await logsOf(call, t, w, built.id);
    expect(logs).toEqual(
      expect.arrayContaining([
        "#1 [internal] load build definition from Dockerfile",
        "#2 [internal] load metadata for docker.io/library/node:22-alpine",
        "#5 [build 1/4] FROM node:22-alpine",
        "#8 [build 4/4] RUN npm ci",
        "#10 [2/2] COPY --from=build /app/dist /usr/share/nginx/html",
        `deployment "web" successfully rolled out`,
      ]),
    );
    expect(github.requests.some((request) => request.path === "/repos/acme/web/contents/Dockerfile")).toBe(
      true,
    );

    const missing = await deploy(
      call,
      t,
      w,
      "web-missing",
      app({ source: { ...source, dockerfilePath: "docker/Dockerfile.prod" } }),
    );
    expect(missing.stage).toBe("STAGE_FAILED");
    expect(missing.message).toBe(
      "GitHub answered 404 Not Found for docker/Dockerfile.prod on main of acme/web: the repository has no such Dockerfile.",
    );
  });

  it("pulls with the registry connection's credentials; a missing tag and a wrong token fail in the registry's words", async () => {
    const { member, t, w, call } = await setup();
    const good = await addConnection(
      member,
      "DOCKER",
      { BASE_URL: registry.url, USERNAME: "deployer" },
      { TOKEN: "registry-token-1234" },
    );
    const wrong = await addConnection(
      member,
      "DOCKER",
      { BASE_URL: registry.url, USERNAME: "deployer" },
      { TOKEN: "not-the-token" },
    );
    const host = new URL(registry.url).host;

    const pulled = await deploy(
      call,
      t,
      w,
      "web",
      app({ source: { kind: "registry", connectionId: good, repository: "acme/web", tag: "1.0.0" } }),
    );
    expect(pulled.stage).toBe("STAGE_COMPLETED");
    expect(await logsOf(call, t, w, pulled.id)).toContain(
      `Digest: ${registry.digestOf("acme/web", "1.0.0")}`,
    );

    const missingTag = await deploy(
      call,
      t,
      w,
      "web-missing",
      app({ source: { kind: "registry", connectionId: good, repository: "acme/web", tag: "9.9.9" } }),
    );
    expect(missingTag.stage).toBe("STAGE_FAILED");
    expect(missingTag.message).toBe(
      `Failed to pull image "${host}/acme/web:9.9.9": MANIFEST_UNKNOWN: manifest unknown`,
    );

    const refused = await deploy(
      call,
      t,
      w,
      "web-refused",
      app({ source: { kind: "registry", connectionId: wrong, repository: "acme/web", tag: "1.0.0" } }),
    );
    expect(refused.stage).toBe("STAGE_FAILED");
    expect(refused.message).toBe(
      `Failed to pull image "${host}/acme/web:1.0.0": unauthorized: incorrect username or password`,
    );
  });

  it("rolls pods one at a time, rolls back on its own when the new pods never get healthy, and rolls back on request", async () => {
    const { t, w, call } = await setup();
    const first = await deploy(
      call,
      t,
      w,
      "web",
      app({ source: { kind: "image", image: "nginx:1.27" }, scaling: { mode: "fixed", replicas: 2 } }),
    );
    expect(first.stage).toBe("STAGE_COMPLETED");
    const [oldPod] = first.pods.map((pod) => pod.name);

    const change = (config: ApplicationConfig, version: number) =>
      call("PUT", servicePaths.one(t, w, first.id), { version, config });
    await change(
      app({ source: { kind: "image", image: "nginx:1.28" }, scaling: { mode: "fixed", replicas: 2 } }),
      first.version,
    );
    await api.engine.runner.runUntilIdle();
    let current = resourceResponseSchema.parse(
      await (await call("GET", servicePaths.one(t, w, first.id))).json(),
    ).resource;
    expect(current.stage).toBe("STAGE_COMPLETED");
    const logs = await logsOf(call, t, w, first.id);
    expect(logs).toEqual(
      expect.arrayContaining([
        `Waiting for deployment "web" rollout to finish: 0 of 2 updated replicas are available...`,
        `Waiting for deployment "web" rollout to finish: 1 of 2 updated replicas are available...`,
        `Normal  Killing  pod/${oldPod}  Stopping container web`,
      ]),
    );

    // A health check on a path the simulated application answers 503: the rollout is undone.
    const unhealthy = app({
      source: { kind: "image", image: "nginx:1.29" },
      scaling: { mode: "fixed", replicas: 2 },
      healthCheck: { ...defaultApplicationConfig.healthCheck, path: "/unhealthy" },
    });
    await change(unhealthy, current.version);
    await api.engine.runner.runUntilIdle();
    const runningPods = current.pods;
    current = resourceResponseSchema.parse(
      await (await call("GET", servicePaths.one(t, w, first.id))).json(),
    ).resource;
    expect(current.stage).toBe("STAGE_FAILED");
    expect(current.message).toContain(
      "The new pods never became healthy (Readiness probe failed: HTTP probe failed with statuscode: 503)",
    );
    expect(current.pods).toEqual(runningPods);
    expect(current.config.source).toEqual({ kind: "image", image: "nginx:1.28" });
    expect(await logsOf(call, t, w, first.id)).toContain(`deployment.apps/web rolled back`);

    const { versions } = applicationVersionListSchema.parse(
      await (await call("GET", applicationPaths.versions(t, w, first.id))).json(),
    );
    expect(versions.map((version) => [version.number, version.outcome, version.running])).toEqual([
      [3, "STAGE_FAILED", false],
      [2, "STAGE_COMPLETED", true],
      [1, "STAGE_COMPLETED", false],
    ]);
    const firstVersion = versions[2];
    if (!firstVersion) throw new Error("three versions");
    const preview = applicationVersionResponseSchema.parse(
      await (await call("GET", applicationPaths.version(t, w, first.id, firstVersion.id))).json(),
    );
    expect(preview.diff).toContainEqual({
      path: "config.source.image",
      before: "nginx:1.28",
      after: "nginx:1.27",
    });

    const rollback = await call("POST", applicationPaths.rollback(t, w, first.id, firstVersion.id));
    expect(rollback.status).toBe(202);
    expect(rollbackResponseSchema.parse(await rollback.json()).diff).toEqual(preview.diff);
    await api.engine.runner.runUntilIdle();
    current = resourceResponseSchema.parse(
      await (await call("GET", servicePaths.one(t, w, first.id))).json(),
    ).resource;
    expect(current.stage).toBe("STAGE_COMPLETED");
    expect(current.history[0]?.action).toBe("Rollback");
    const after = applicationVersionListSchema.parse(
      await (await call("GET", applicationPaths.versions(t, w, first.id))).json(),
    ).versions;
    expect(after[0]).toMatchObject({
      number: 4,
      running: true,
      rollbackOf: 1,
      imageDigest: firstVersion.imageDigest,
    });
    expect(await logsOf(call, t, w, first.id)).toContainEqual(
      expect.stringContaining(`Rolling back: deploying nginx:1.27@${firstVersion.imageDigest}`),
    );

    // Another organization's member sees neither the versions nor can roll back.
    const stranger = await setup();
    const foreign = await api.call("POST", applicationPaths.rollback(t, w, first.id, firstVersion.id), {
      token: stranger.member.user.token,
    });
    expect([403, 404]).toContain(foreign.status);

    const balancers = loadBalancerListSchema.parse(
      await (await call("GET", servicePaths.loadBalancers(t, w))).json(),
    );
    expect(balancers.loadBalancers[0]?.routes).toContainEqual(
      expect.objectContaining({ resourceId: first.id, path: "/web", listenerPort: 443, targetPort: 80 }),
    );
  });
});
