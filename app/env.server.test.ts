import { describe, expect, it } from "vitest";
import { parseAppEnv } from "./env.server";

const secret = "s".repeat(32);

describe("parseAppEnv", () => {
  it("defaults to the embedded platform on localhost", () => {
    const env = parseAppEnv({ SESSION_SECRET: secret, AUTH0_CLIENT_SECRET: "c" });
    expect(env).toMatchObject({
      appUrl: "http://localhost:3000",
      platformApiUrl: "http://localhost:4000",
      issuer: "http://localhost:4000/",
      audience: "http://localhost:4000/api",
      clientId: "cloud-console",
      production: false,
      pollIntervalMs: 5000,
    });
  });

  it("reads the busy poll interval the tests shorten (SPEC's 5 s stays the default)", () => {
    const base = { SESSION_SECRET: secret, AUTH0_CLIENT_SECRET: "c" };
    expect(parseAppEnv({ ...base, POLL_INTERVAL_MS: "500" }).pollIntervalMs).toBe(500);
    expect(() => parseAppEnv({ ...base, POLL_INTERVAL_MS: "fast" })).toThrow(/POLL_INTERVAL_MS/);
  });

  it("treats a bare Auth0 domain as https and keeps rotated session secrets", () => {
    const env = parseAppEnv({
      NODE_ENV: "production",
      SESSION_SECRET: `${secret},${"o".repeat(32)}`,
      AUTH0_DOMAIN: "tenant.eu.auth0.com",
      AUTH0_CLIENT_SECRET: "c",
    });
    expect(env.issuer).toBe("https://tenant.eu.auth0.com/");
    expect(env.sessionSecrets).toHaveLength(2);
    expect(env.production).toBe(true);
  });

  it("fails naming each missing or bad variable", () => {
    expect(() => parseAppEnv({ SESSION_SECRET: "short", PLATFORM_API_URL: "not a url" })).toThrow(
      /SESSION_SECRET[\s\S]*PLATFORM_API_URL[\s\S]*AUTH0_CLIENT_SECRET/,
    );
  });
});
