import { Validator } from "@seriousme/openapi-schema-validator";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { afterAll, describe, expect, it } from "vitest";
import { defaultApplicationConfig } from "#contract/application-config";
import { applicationPaths } from "#contract/applications";
import { environmentPaths, environmentResponseSchema } from "#contract/environments";
import { resourceResponseSchema, servicePaths } from "#contract/services";
import { openTestApi } from "../testing/http-harness";
import { openApiDocumentSchema, type OpenApiDocument } from "#contract/openapi";
import { openApiPathOf, routesOf } from "./openapi";

const api = await openTestApi();
afterAll(async () => {
  await api.close();
});

async function fetchDocument(): Promise<OpenApiDocument> {
  const response = await api.call("GET", "/openapi.json");
  expect(response.status).toBe(200);
  return (await response.json()) as OpenApiDocument;
}

/**
 * The routes whose success answer has no schema, each for a reason: GitHub's webhook answers GitHub, and the
 * document does not describe itself. A new route missing from `documentRoutes` fails the test below.
 */
const undescribedAnswers = ["POST /api/webhooks/github/{hookId}", "GET /api/openapi.json"];

describe("GET /api/openapi.json", () => {
  it("is a valid OpenAPI 3.1 document, served without a token", async () => {
    const document = await fetchDocument();
    const result = await new Validator().validate(document as never);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(document.openapi).toBe("3.1.0");
    // What the app's API reference reads of it.
    expect(openApiDocumentSchema.safeParse(document).error).toBeUndefined();
  });

  it("has every route of the API with its permission, and describes every answer but a listed few", async () => {
    const document = await fetchDocument();
    const routes = routesOf(api.app);
    const missing = routes.filter(
      (route) => !document.paths[openApiPathOf(route.path)]?.[route.method.toLowerCase()],
    );
    expect(missing.map((route) => `${route.method} ${route.path}`)).toEqual([]);
    const operations = Object.entries(document.paths).flatMap(([path, byMethod]) =>
      Object.entries(byMethod).map(([method, operation]) => ({
        key: `${method.toUpperCase()} ${path}`,
        operation,
      })),
    );
    expect(operations).toHaveLength(routes.length);
    const undescribed = operations
      .filter(({ operation }) =>
        Object.entries(operation.responses).every(
          ([status, answer]) => status === "default" || !answer.content,
        ),
      )
      .filter(({ operation }) => !("204" in operation.responses))
      .map(({ key }) => key);
    expect(undescribed.sort()).toEqual([...undescribedAnswers].sort());
    const described = operations.length - undescribed.length;
    console.info(
      `OpenAPI coverage: ${operations.length}/${routes.length} routes documented, ${described} with their answers' schemas`,
    );

    const listServices =
      document.paths["/api/v2/organizations/{tenantId}/environments/{environmentId}/infrastructure"]?.get;
    expect(listServices).toMatchObject({
      tags: ["services"],
      "x-permission": "organization.view",
      security: [{ bearer: [] }],
    });
    expect(listServices?.parameters.map((parameter) => `${parameter.in} ${parameter.name}`)).toEqual(
      expect.arrayContaining(["path tenantId", "path environmentId", "query page"]),
    );
    expect(document.paths["/api/healthz"]?.get?.security).toEqual([]);
  });
});

describe("the API's answers", () => {
  it("match the document's schemas for the calls a pipeline and the app make", async () => {
    const document = await fetchDocument();
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats.default(ajv);
    ajv.addSchema(document, "openapi.json");
    const templates = Object.keys(document.paths).map((path) => ({
      path,
      pattern: new RegExp(`^${path.replace(/\{\w+\}/g, "[^/]+")}$`),
    }));
    const checked: string[] = [];

    /** Calls the API and validates the answer against the operation's schema for its status (or default). */
    async function call(method: string, path: string, options: Parameters<typeof api.call>[2] = {}) {
      const response = await api.call(method, path, options);
      const url = new URL(`http://x/api${path}`);
      const template = templates.find((candidate) => candidate.pattern.test(url.pathname));
      if (!template) throw new Error(`no documented path for ${url.pathname}`);
      const operation = document.paths[template.path]?.[method.toLowerCase()];
      if (!operation) throw new Error(`no documented ${method} ${template.path}`);
      const status = String(response.status);
      const answer = operation.responses[status] ?? operation.responses.default;
      const schema = answer?.content?.["application/json"]?.schema;
      if (response.status !== 204 && response.status !== 304) {
        expect(schema, `${method} ${template.path} ${status} has a schema`).toBeDefined();
        const key = status in operation.responses ? status : "default";
        const pointer = ["paths", template.path, method.toLowerCase(), "responses", key]
          .concat(["content", "application/json", "schema"])
          .map((segment) => encodeURIComponent(segment.replace(/~/g, "~0").replace(/\//g, "~1")))
          .join("/");
        const validate = ajv.getSchema(`openapi.json#/${pointer}`);
        if (!validate) throw new Error(`no schema at ${pointer}`);
        const body: unknown = await response.clone().json();
        // The validator is not blind: an empty object is never a valid answer of these calls.
        expect(validate({}), `${method} ${template.path} ${status} refuses {}`).toBe(false);
        expect(validate(body) ? [] : validate.errors, `${method} ${path} ${status}`).toEqual([]);
      }
      checked.push(`${method} ${template.path} ${status}`);
      return response;
    }

    const member = await api.createMember();
    const t = member.organization.tenantId;
    const token = member.user.token;
    const created = await call("POST", environmentPaths.list(t), {
      token,
      json: { name: "staging", cloudProvider: "AWS", region: "us-east-1" },
    });
    expect(created.status).toBe(201);
    const { environment } = environmentResponseSchema.parse(await created.json());
    const w = environment.id;
    await call("GET", environmentPaths.list(t), { token });
    await call("GET", environmentPaths.list(t, { totals: false }), { token });
    await call("GET", environmentPaths.one(t, w), { token });

    const image = { ...defaultApplicationConfig, source: { kind: "image" as const, image: "nginx:1.27" } };
    const service = await call("POST", servicePaths.list(t, w), {
      token,
      json: { serviceType: "application", name: "web", config: image, launch: true },
    });
    expect(service.status).toBe(201);
    const { resource } = resourceResponseSchema.parse(await service.json());
    await api.engine.runner.runUntilIdle();
    await call("GET", servicePaths.list(t, w), { token });
    await call("GET", servicePaths.one(t, w, resource.id), { token });
    await call("GET", servicePaths.logs(t, w, resource.id, { logType: "LIVE", limit: 50 }), { token });
    await call("GET", applicationPaths.versions(t, w, resource.id), { token });
    const changed = await call("PUT", servicePaths.one(t, w, resource.id), {
      token,
      json: {
        version: resource.version,
        config: { ...image, source: { kind: "image", image: "nginx:1.28" } },
      },
    });
    expect(changed.status).toBe(200);
    await call("PUT", environmentPaths.variablesImport(t, w), {
      token,
      json: { envVariables: [{ name: "GREETING", value: "hello" }] },
    });
    await call("GET", environmentPaths.variables(t, w), { token });
    await call("GET", `/v2/organizations/${t}/users/v2`, { token });
    await call("GET", `/v2/organizations/${t}/users/v2/permissions`, { token });
    await call("GET", "/healthz");

    // Errors answer with the one error body, documented for every operation.
    await call("GET", servicePaths.one(t, w, crypto.randomUUID()), { token });
    await call("POST", environmentPaths.list(t), { token, json: { name: "" } });
    await call("GET", environmentPaths.list(t));
    await call("GET", environmentPaths.list(t), { token: (await api.createUser()).token });
    expect(checked).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/ 404$/),
        expect.stringMatching(/ 400$/),
        expect.stringMatching(/ 401$/),
        expect.stringMatching(/ 403$/),
      ]),
    );
  });
});
