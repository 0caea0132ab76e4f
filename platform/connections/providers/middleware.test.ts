import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Credentials } from "../providers";
import {
  closedPortUrl,
  leakedSecrets,
  providerContext,
  startFakeMiddleware,
  startTestServer,
  type TestServer,
} from "../../testing/provider-servers";
import { middleware } from "./middleware";

const API_KEY = "mw-key-S3CRET-0001";
const WRONG = "mw-key-wrong-S3CRET-0002";
const context = providerContext();

let tenant: TestServer;
let elsewhere: TestServer;

beforeAll(async () => {
  tenant = await startFakeMiddleware({ apiKey: API_KEY, projectUid: "kbuin" });
  elsewhere = await startTestServer({ "GET /": () => ({ body: "<html>hello</html>" }) });
});
afterAll(async () => {
  await tenant.close();
  await elsewhere.close();
});

function connection({ apiKey = API_KEY, url = tenant.url } = {}): Credentials {
  return {
    kind: "OBSERVABILITY_PROVIDER_TYPE_MIDDLEWARE",
    method: "api-key",
    fields: { MW_URL: url, MW_PROJECT_ALIAS: "production" },
    secrets: { MW_API_KEY: apiKey },
  };
}

describe("the Middleware check", () => {
  it("validates the API key as Middleware's agents do and names the project", async () => {
    const before = tenant.requests.length;
    const result = await middleware.check(connection(), context);
    expect(result).toEqual({
      ok: true,
      message: `Middleware (${new URL(tenant.url).host}) accepted the API key.`,
      details: ["Middleware project: kbuin", "Project alias: production"],
    });
    const [request] = tenant.requests.slice(before);
    expect(request).toMatchObject({ method: "POST", path: "/api/v1/auth" });
    expect(request?.headers.authorization).toBe(`Bearer ${API_KEY}`);
  });

  it("says Middleware refused a wrong key, on the key field", async () => {
    const result = await middleware.check(connection({ apiKey: WRONG }), context);
    expect(result).toEqual({
      ok: false,
      message: `Middleware (${new URL(tenant.url).host}) refused the API key: copy it again from Middleware's installation page.`,
      details: [],
      field: "MW_API_KEY",
    });
    expect(leakedSecrets(result, [API_KEY, WRONG])).toEqual([]);
  });

  it("points at the URL when it is not Middleware", async () => {
    const result = await middleware.check(connection({ url: elsewhere.url }), context);
    expect(result).toMatchObject({ ok: false, field: "MW_URL" });
    expect(result.message).toBe(
      `${new URL(elsewhere.url).host} does not answer like Middleware (POST /api/v1/auth answered 404): check the Middleware URL (https://{uid}.middleware.io).`,
    );
  });

  it("says a host that refuses connections or does not exist cannot be reached", async () => {
    const closed = await closedPortUrl();
    expect(await middleware.check(connection({ url: closed }), context)).toEqual({
      ok: false,
      message: `Could not reach ${new URL(closed).host}: the connection was refused.`,
      details: [],
      field: "MW_URL",
    });
    const unknown = await middleware.check(connection({ url: "http://nothing.invalid" }), context);
    expect(unknown).toMatchObject({ ok: false, field: "MW_URL" });
    expect(unknown.message).toMatch(/^Could not reach nothing\.invalid: its name/);
  });
});
