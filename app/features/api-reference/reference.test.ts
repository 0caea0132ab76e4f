import { describe, expect, it } from "vitest";
import * as z from "zod";
import type { OpenApiDocument } from "#contract/openapi";
import { referenceOf, typeText } from "./reference";

describe("typeText", () => {
  it("writes a contract schema as the TypeScript-like type a reader expects", () => {
    const schema = z.toJSONSchema(
      z.object({
        id: z.uuid(),
        name: z.string(),
        stage: z.enum(["STAGE_COMPLETED", "STAGE_FAILED"]),
        tags: z.array(z.string()).optional(),
        message: z.string().nullable(),
        labels: z.record(z.string(), z.number()),
      }),
    ) as Record<string, unknown>;
    expect(typeText(schema)).toBe(
      [
        "{",
        "  id: string (uuid);",
        "  name: string;",
        '  stage: "STAGE_COMPLETED" | "STAGE_FAILED";',
        "  tags?: string[];",
        "  message: string | null;",
        "  labels: {",
        "    [key: string]: number;",
        "  };",
        "}",
      ].join("\n"),
    );
    expect(typeText({ $ref: "#/components/schemas/ApiError" })).toBe("ApiError");
  });
});

describe("referenceOf", () => {
  it("groups operations by tag with method, path, permission, parameters, request and answers", () => {
    const document: OpenApiDocument = {
      openapi: "3.1.0",
      info: { title: "Platform API", version: "1", description: "" },
      servers: [{ url: "http://localhost:4000" }],
      tags: [{ name: "environments" }, { name: "services" }],
      paths: {
        "/api/v2/organizations/{tenantId}/environments": {
          get: {
            operationId: "listEnvironments",
            tags: ["environments"],
            summary: "",
            description: "",
            "x-permission": "organization.view",
            security: [{ bearer: [] }],
            parameters: [
              { name: "tenantId", in: "path", required: true, schema: { type: "string" } },
              { name: "totals", in: "query", required: false, schema: { enum: ["true", "false"] } },
            ],
            responses: {
              "200": {
                description: "Success",
                content: { "application/json": { schema: { type: "object", properties: {} } } },
              },
              default: { description: "An error" },
            },
          },
        },
      },
      components: { schemas: {}, securitySchemes: {} },
    };
    expect(referenceOf(document)).toEqual([
      {
        tag: "environments",
        operations: [
          {
            id: "listEnvironments",
            method: "GET",
            path: "/api/v2/organizations/{tenantId}/environments",
            permission: "organization.view",
            parameters: [
              { name: "tenantId", in: "path", required: true, type: "string" },
              { name: "totals", in: "query", required: false, type: '"true" | "false"' },
            ],
            request: null,
            responses: [
              { status: "200", description: "Success", body: "{}" },
              { status: "default", description: "An error", body: "ApiError" },
            ],
          },
        ],
      },
    ]);
  });
});
