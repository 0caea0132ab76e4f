import type { Hono } from "hono";
import * as z from "zod";
import { apiErrorSchema } from "#contract/error-body";
import type { OpenApiDocument, OpenApiOperation } from "#contract/openapi";
import { permissionDescriptions, type Permission } from "#contract/permissions";
import { routeSchemas, type RouteSchemas } from "./documented";
import { routeRules, type RouteRule } from "./permissions";

type JsonSchema = Record<string, unknown>;

/**
 * The OpenAPI 3.1 description of the API, generated from what the routes declare: their paths as Hono holds them,
 * their permission (permit/signedIn) and their contract schemas (documentRoutes). Nothing in it is written by hand,
 * so it cannot list a route that does not exist or miss one that does (openapi.test.ts walks the routes).
 */
export function openApiDocument(app: Hono, { serverUrl }: { serverUrl: string }): OpenApiDocument {
  const components: Record<string, JsonSchema> = { ApiError: jsonSchemaOf(apiErrorSchema, "output", {}) };
  const paths: OpenApiDocument["paths"] = {};
  const tags = new Set<string>();
  for (const route of routesOf(app)) {
    const path = openApiPathOf(route.path);
    const tag = tagOf(path);
    tags.add(tag);
    const operation = operationOf(route, path, tag, components);
    paths[path] = { ...paths[path], [route.method.toLowerCase()]: operation };
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Platform API",
      version: "1",
      description:
        "Every call takes a bearer token (an access token of the identity provider, or an API token) but the " +
        "few marked public. Each operation names the permission it needs in `x-permission`; errors answer with " +
        "the ApiError body, whose `fieldErrors` name the fields a 400 refused.",
    },
    servers: [{ url: serverUrl }],
    tags: [...tags].sort().map((name) => ({ name })),
    paths,
    components: {
      schemas: components,
      securitySchemes: { bearer: { type: "http", scheme: "bearer" } },
    },
  };
}

type ApiRoute = { method: string; path: string; rule?: RouteRule; schemas?: RouteSchemas };

/** The app's routes, one per method and path, with what their handlers declare (middleware under `use` left out). */
export function routesOf(app: Hono): ApiRoute[] {
  const byRoute = new Map<string, ApiRoute>();
  for (const route of app.routes) {
    if (route.method === "ALL") continue;
    const key = `${route.method} ${route.path}`;
    const entry = byRoute.get(key) ?? { method: route.method, path: route.path };
    entry.rule ??= routeRules.get(route.handler as never);
    entry.schemas ??= routeSchemas.get(route.handler);
    byRoute.set(key, entry);
  }
  return [...byRoute.values()];
}

/** Hono's `/a/:id` (with an optional `{pattern}`) as OpenAPI's `/a/{id}`. */
export function openApiPathOf(honoPath: string): string {
  return honoPath.replace(/:(\w+)(\{[^}]*\})?/g, "{$1}");
}

const tagNames: Record<string, string> = { infrastructure: "services", tenant: "organizations" };

/** The area a path belongs to: its first fixed segment after the organization and environment it is under. */
function tagOf(path: string): string {
  const rest = path
    .replace(/^\/api/, "")
    .replace(/^\/v2/, "")
    .replace(/^\/(organizations|tenant)\/\{tenantId\}/, "")
    .replace(/^\/environments\/\{environmentId\}/, "");
  const segment = rest.split("/").find((part) => part && !part.startsWith("{")) ?? "organizations";
  const name = tagNames[segment] ?? (rest.startsWith("/environments") ? "environments" : segment);
  return name;
}

function operationOf(
  route: ApiRoute,
  path: string,
  tag: string,
  components: Record<string, JsonSchema>,
): OpenApiOperation {
  const permission = permissionOf(route.rule);
  const schemas = route.schemas ?? {};
  const pathParameters = [...path.matchAll(/\{(\w+)\}/g)].map((match) => ({
    name: match[1] ?? "",
    in: "path" as const,
    required: true,
    schema: { type: "string" },
  }));
  const responses: OpenApiOperation["responses"] = {};
  for (const [status, answer] of Object.entries(schemas.responses ?? {})) {
    responses[status] = responseOf(answer, components);
  }
  if (!Object.keys(responses).length) responses["200"] = { description: "Success (body not described)" };
  responses.default = {
    description: "An error: 400 (fieldErrors), 401, 403 (the missing permission), 404, 409, 429 or 5xx",
    content: { "application/json": { schema: { $ref: "#/components/schemas/ApiError" } } },
  };
  return {
    operationId: `${route.method.toLowerCase()}${path.replace(/\{(\w+)\}/g, "By-$1").replace(/[^A-Za-z0-9]+(.)?/g, (_m, next: string | undefined) => (next ?? "").toUpperCase())}`,
    tags: [tag],
    summary: `${route.method} ${path}`,
    description: permission.description,
    "x-permission": permission.name,
    security: permission.name === "none" ? [] : [{ bearer: [] }],
    parameters: [...pathParameters, ...(schemas.query ? queryParametersOf(schemas.query, components) : [])],
    ...(schemas.body
      ? {
          requestBody: {
            required: true,
            content: { "application/json": { schema: jsonSchemaOf(schemas.body, "input", components) } },
          },
        }
      : {}),
    responses,
  };
}

function permissionOf(rule: RouteRule | undefined): { name: string; description: string } {
  if (!rule) return { name: "none", description: "Public: no token needed." };
  if ("signedIn" in rule)
    return { name: "signed-in", description: "Any signed-in caller, outside organizations." };
  if (typeof rule.permission === "function") {
    return {
      name: "depends-on-request",
      description: "The permission depends on the request (e.g. revealing secrets needs secrets.reveal).",
    };
  }
  const where = rule.scope === "organization" ? "in the organization" : "where the request applies";
  return {
    name: rule.permission,
    description: `Needs \`${rule.permission}\` ${where}: ${permissionDescriptions[rule.permission as Permission]}.`,
  };
}

function responseOf(
  answer: NonNullable<RouteSchemas["responses"]>[number],
  components: Record<string, JsonSchema>,
): OpenApiOperation["responses"][string] {
  if (answer === null) return { description: "No content" };
  if (typeof answer === "string") {
    return { description: "A file", content: { [answer]: { schema: { type: "string" } } } };
  }
  const alternatives = Array.isArray(answer) ? answer : [answer as z.ZodType];
  const schemas = alternatives.map((schema) => jsonSchemaOf(schema, "output", components));
  return {
    description: "Success",
    content: {
      "application/json": { schema: schemas.length === 1 ? (schemas[0] ?? {}) : { anyOf: schemas } },
    },
  };
}

function queryParametersOf(schema: z.ZodType, components: Record<string, JsonSchema>) {
  const json = jsonSchemaOf(schema, "input", components);
  const properties = (json.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((json.required ?? []) as string[]);
  return Object.entries(properties).map(([name, property]) => ({
    name,
    in: "query" as const,
    required: required.has(name),
    schema: property,
  }));
}

/**
 * A contract schema as JSON Schema 2020-12 (OpenAPI 3.1's dialect): requests as they are sent (`input`),
 * answers as they are received (`output`). Definitions zod hoists (recursive schemas) move to the document's
 * components, because a `#/$defs/...` reference inside an operation would resolve against the document's root.
 */
function jsonSchemaOf(
  schema: z.ZodType,
  io: "input" | "output",
  components: Record<string, JsonSchema>,
): JsonSchema {
  const {
    $schema: _dialect,
    $defs,
    ...json
  } = z.toJSONSchema(schema, {
    io,
    unrepresentable: "any",
    target: "draft-2020-12",
  }) as JsonSchema & { $defs?: Record<string, JsonSchema> };
  if (!$defs) return json;
  const names = new Map<string, string>();
  for (const name of Object.keys($defs)) {
    let unique = name;
    for (let n = 2; unique in components; n++) unique = `${name}${n}`;
    names.set(name, unique);
    components[unique] = {};
  }
  const rewrite = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(rewrite);
    if (value && typeof value === "object") {
      return Object.fromEntries(
        Object.entries(value).map(([key, inner]) =>
          key === "$ref" && typeof inner === "string" && inner.startsWith("#/$defs/")
            ? [key, `#/components/schemas/${names.get(inner.slice("#/$defs/".length)) ?? ""}`]
            : [key, rewrite(inner)],
        ),
      );
    }
    return value;
  };
  for (const [name, definition] of Object.entries($defs))
    components[names.get(name) ?? name] = rewrite(definition) as JsonSchema;
  return rewrite(json) as JsonSchema;
}
