import { DrizzleQueryError } from "drizzle-orm/errors";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { apiErrorSchema } from "#contract/error-body";
import { apiErrorCodes, apiErrorMessages } from "#contract/errors";
import { healthSchema } from "#contract/identity";
import type { Database } from "../db/index";
import { createApiApp } from "./app";
import { openTestApi, testPlatformConfig, type TestApi } from "../testing/http-harness";
import { createTestTokenIssuer } from "../testing/tokens";

let api: TestApi;
beforeAll(async () => {
  api = await openTestApi();
});
afterAll(() => api.close());

describe("GET /api/healthz", () => {
  it("answers without a token", async () => {
    const response = await api.call("GET", "/healthz");
    expect(response.status).toBe(200);
    expect(healthSchema.parse(await response.json())).toEqual({ status: "ok" });
  });
});

describe("unknown routes", () => {
  it("answer 404 with the JSON error body", async () => {
    const { token } = await api.createUser();
    const response = await api.call("GET", "/no-such-route", { token });
    expect(response.status).toBe(404);
    expect(response.headers.get("Content-Type")).toMatch(/^application\/json/);
    expect(apiErrorSchema.parse(await response.json())).toEqual({
      message: apiErrorMessages.notFound,
      code: apiErrorCodes.notFound,
    });
  });
});

describe("request ids", () => {
  it("echoes the caller's X-Request-ID so both sides log the same id", async () => {
    const response = await api.call("GET", "/healthz", { headers: { "X-Request-ID": "request-123" } });
    expect(response.headers.get("X-Request-ID")).toBe("request-123");
  });
});

describe("unexpected failures", () => {
  it("answer 500 with a fixed message and log the cause server-side only", async () => {
    const internalDetail = "connect ECONNREFUSED db.internal:5432";
    const brokenDb = new Proxy({} as Database, {
      get() {
        throw new Error(internalDetail);
      },
    });
    const config = testPlatformConfig();
    const tokens = await createTestTokenIssuer({ issuer: config.issuer, audience: config.audience });
    const app = createApiApp({ db: brokenDb, config, jwks: tokens.jwks });
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    try {
      const response = await app.request(
        "/api/v2/organizations/00000000-0000-0000-0000-000000000000/environments",
        {
          headers: {
            Authorization: `Bearer ${await tokens.sign({ sub: "user_anyone", grantId: "grant_anyone" })}`,
          },
        },
      );
      expect(response.status).toBe(500);
      const text = await response.text();
      expect(JSON.parse(text)).toEqual({ message: apiErrorMessages.internal });
      expect(text).not.toContain("ECONNREFUSED");
      expect(logged).toHaveBeenCalledWith(
        expect.stringContaining("GET /api/v2/organizations/"),
        expect.any(Error),
      );
    } finally {
      logged.mockRestore();
    }
  });

  it("log a failed query without its statement, its parameters or the query string", async () => {
    const failedQuery = new DrizzleQueryError(
      'insert into "environment_variables" ("name", "value") values ($1, $2)',
      ["API_KEY", "plaintext-secret-value"],
      Object.assign(new Error('invalid byte sequence for encoding "UTF8": 0x00'), { code: "22021" }),
    );
    const brokenDb = new Proxy({} as Database, {
      get() {
        throw failedQuery;
      },
    });
    const config = testPlatformConfig();
    const tokens = await createTestTokenIssuer({ issuer: config.issuer, audience: config.audience });
    const app = createApiApp({ db: brokenDb, config, jwks: tokens.jwks });
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    try {
      const response = await app.request(
        "/api/tenant/00000000-0000-0000-0000-000000000000?text=typed-by-a-user",
        {
          headers: {
            Authorization: `Bearer ${await tokens.sign({ sub: "user_anyone", grantId: "grant_anyone" })}`,
          },
        },
      );
      expect(response.status).toBe(500);
      const output = logged.mock.calls
        .flat()
        .map((argument) =>
          argument instanceof Error ? `${argument.message}\n${argument.stack}` : String(argument),
        )
        .join("\n");
      expect(output).toContain("SQLSTATE 22021");
      expect(output).not.toContain("plaintext-secret-value");
      expect(output).not.toContain("environment_variables");
      expect(output).not.toContain("typed-by-a-user");
    } finally {
      logged.mockRestore();
    }
  });
});
