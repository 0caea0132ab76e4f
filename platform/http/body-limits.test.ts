import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiErrorSchema } from "#contract/error-body";
import { environmentPaths } from "#contract/environments";
import { SERVERLESS_UPLOAD_MAX_BYTES } from "#contract/service-catalogue";
import { servicePaths } from "#contract/services";
import { JSON_BODY_MAX_BYTES } from "./body-limits";
import { openTestApi, type TestApi, type TestMember } from "../testing/http-harness";

let api: TestApi;
let member: TestMember;
let environmentId: string;
beforeAll(async () => {
  api = await openTestApi();
  member = await api.createMember();
  environmentId = (await api.createEnvironment(member.organization.tenantId)).id;
});
afterAll(() => api.close());

const CHUNK_BYTES = 256 * 1024;

/** A chunked body (no Content-Length) made on demand, counting how much of it the server pulled. */
function lazyBody(totalBytes: number) {
  const pulled = { bytes: 0 };
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (pulled.bytes >= totalBytes) return controller.close();
      pulled.bytes += CHUNK_BYTES;
      controller.enqueue(new Uint8Array(CHUNK_BYTES).fill(0x20));
    },
  });
  return { stream, pulled };
}

function post(path: string, body: BodyInit, headers: Record<string, string>) {
  return api.app.request(`/api${path}`, {
    method: "POST",
    body,
    headers: { Authorization: `Bearer ${member.user.token}`, ...headers },
    duplex: "half",
  } as RequestInit);
}

describe("request body limits", () => {
  it("refuses a JSON body announced over 1 MB without reading it", async () => {
    const { stream, pulled } = lazyBody(150 * 1024 * 1024);
    const response = await post(environmentPaths.list(member.organization.tenantId), stream, {
      "Content-Type": "application/json",
      "Content-Length": String(150 * 1024 * 1024),
    });
    expect(response.status).toBe(413);
    expect(pulled.bytes).toBeLessThanOrEqual(CHUNK_BYTES);
  });

  it("stops reading a chunked JSON body once it passes 1 MB", async () => {
    const { stream, pulled } = lazyBody(150 * 1024 * 1024);
    const response = await post(environmentPaths.list(member.organization.tenantId), stream, {
      "Content-Type": "application/json",
    });
    expect(response.status).toBe(413);
    expect(apiErrorSchema.parse(await response.json()).message).toMatch(/at most 1048576 bytes/);
    expect(pulled.bytes).toBeLessThanOrEqual(JSON_BODY_MAX_BYTES + 2 * CHUNK_BYTES);
  });

  it("stops reading a chunked serverless upload once it passes 50 MB", async () => {
    const { stream, pulled } = lazyBody(120 * 1024 * 1024);
    const response = await post(
      servicePaths.serverlessUpload(member.organization.tenantId, environmentId),
      stream,
      { "Content-Type": "multipart/form-data; boundary=x" },
    );
    expect(response.status).toBe(413);
    expect(pulled.bytes).toBeLessThanOrEqual(SERVERLESS_UPLOAD_MAX_BYTES + 64 * 1024 + 2 * CHUNK_BYTES);
  });
});

describe("API answers", () => {
  it("carry nosniff, no-store and a CSP, errors included", async () => {
    const ok = await api.call("GET", environmentPaths.list(member.organization.tenantId), {
      token: member.user.token,
    });
    const refused = await api.call("GET", environmentPaths.list(member.organization.tenantId));
    for (const response of [ok, refused]) {
      expect(response.headers.get("X-Content-Type-Options")).toBe("nosniff");
      expect(response.headers.get("Cache-Control")).toBe("no-store");
      expect(response.headers.get("Content-Security-Policy")).toBe(
        "default-src 'none'; frame-ancestors 'none'",
      );
    }
    expect([ok.status, refused.status]).toEqual([200, 401]);
  });
});
