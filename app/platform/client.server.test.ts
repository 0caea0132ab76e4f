import { HttpResponse, delay, http } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import * as z from "zod";
import { errorMessages } from "#contract/errors";
import {
  DEFAULT_RETRY_DELAYS_MS,
  PlatformError,
  createPlatformClient,
  isPlatformError,
} from "./client.server";
import type { PlatformClientOptions, PlatformRequestLogEntry } from "./client.server";

const BASE_URL = "http://platform.test";
const api = (path: string) => `${BASE_URL}/api${path}`;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => {
  server.resetHandlers();
  vi.restoreAllMocks();
});
afterAll(() => server.close());

const itemSchema = z.object({ id: z.string(), name: z.string() });

function clientWith(overrides: Partial<PlatformClientOptions> = {}) {
  const logs: PlatformRequestLogEntry[] = [];
  const client = createPlatformClient({
    baseUrl: BASE_URL,
    getAccessToken: async () => "token-1",
    retryDelaysMs: [0, 0, 0],
    log: (entry) => logs.push(entry),
    ...overrides,
  });
  return { client, logs };
}

/** Records every request a handler sees, so tests can count attempts and read headers. */
function recorder() {
  const requests: Request[] = [];
  return { requests, record: (request: Request) => requests.push(request.clone()) };
}

async function failure(promise: Promise<unknown>): Promise<PlatformError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!isPlatformError(error)) throw new Error(`expected a PlatformError, got ${String(error)}`);
  return error;
}

describe("request headers and URL", () => {
  it("sends JSON headers, the bearer token and a fresh UUID request id per request", async () => {
    const { requests, record } = recorder();
    server.use(
      http.post(api("/things"), async ({ request }) => {
        record(request);
        return HttpResponse.json({ id: "1", name: "created" });
      }),
    );
    const { client } = clientWith();

    await client.post("/things", itemSchema, { name: "created" });
    await client.post("/things", itemSchema, { name: "created" });

    expect(requests).toHaveLength(2);
    const [first, second] = requests;
    expect(first?.headers.get("accept")).toBe("application/json");
    expect(first?.headers.get("content-type")).toBe("application/json");
    expect(first?.headers.get("authorization")).toBe("Bearer token-1");
    expect(first?.headers.get("x-request-id")).toMatch(UUID);
    expect(second?.headers.get("x-request-id")).toMatch(UUID);
    expect(first?.headers.get("x-request-id")).not.toBe(second?.headers.get("x-request-id"));
    expect(await first?.json()).toEqual({ name: "created" });
  });

  it("asks for the access token on every call", async () => {
    server.use(http.get(api("/things/1"), () => HttpResponse.json({ id: "1", name: "a" })));
    const getAccessToken = vi.fn(async () => "token-1");
    const { client } = clientWith({ getAccessToken });

    await client.get("/things/1", itemSchema);
    await client.get("/things/1", itemSchema);

    expect(getAccessToken).toHaveBeenCalledTimes(2);
  });

  it("omits undefined query values and tolerates a trailing slash on the base URL", async () => {
    const { requests, record } = recorder();
    server.use(
      http.get(api("/v2/feature-flags"), ({ request }) => {
        record(request);
        return HttpResponse.json({ id: "1", name: "flags" });
      }),
    );
    const { client } = clientWith({ baseUrl: `${BASE_URL}/` });

    await client.get("/v2/feature-flags", itemSchema, {
      query: { organizationId: "t 1", environmentId: undefined },
    });

    const url = new URL(requests[0]?.url ?? "");
    expect(url.pathname).toBe("/api/v2/feature-flags");
    expect([...url.searchParams]).toEqual([["organizationId", "t 1"]]);
  });

  it("sends a DELETE body as JSON", async () => {
    const { requests, record } = recorder();
    server.use(
      http.delete(api("/vars"), ({ request }) => {
        record(request);
        return new HttpResponse(null, { status: 204 });
      }),
    );
    const { client } = clientWith();

    await client.delete("/vars", z.undefined(), { envVariableIds: ["a", "b"] });

    expect(await requests[0]?.json()).toEqual({ envVariableIds: ["a", "b"] });
  });
});

describe("response decoding and validation", () => {
  it("parses JSON and returns the schema's output", async () => {
    server.use(http.get(api("/things/1"), () => HttpResponse.json({ id: "1", name: "a", extra: true })));
    const { client } = clientWith();

    await expect(client.get("/things/1", itemSchema)).resolves.toEqual({ id: "1", name: "a" });
  });

  it("gives undefined for an empty body and for a zero content length", async () => {
    server.use(
      http.post(api("/empty"), () => new HttpResponse(null, { status: 204 })),
      http.put(
        api("/empty"),
        () => new HttpResponse("", { status: 200, headers: { "Content-Length": "0" } }),
      ),
    );
    const { client } = clientWith();

    await expect(client.post("/empty", z.undefined())).resolves.toBeUndefined();
    await expect(client.put("/empty", z.undefined(), {})).resolves.toBeUndefined();
  });

  it("reads a non-JSON body as text", async () => {
    server.use(http.get(api("/export"), () => HttpResponse.text('resource "aws_vpc" {}')));
    const { client } = clientWith();

    await expect(client.get("/export", z.string())).resolves.toBe('resource "aws_vpc" {}');
  });

  it("rejects a response that does not match the schema with KE-API-501 and logs the issues", async () => {
    server.use(http.get(api("/things/1"), () => HttpResponse.json({ id: 1 })));
    const consoleError = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const { client, logs } = clientWith();

    const error = await failure(client.get("/things/1", itemSchema));

    expect(error).toMatchObject({
      status: 500,
      code: "KE-API-501",
      message: "Api response not as expected",
      requestId: logs[0]?.requestId,
    });
    expect(logs).toHaveLength(1);
    expect(consoleError).toHaveBeenCalledTimes(1);
    expect(String(consoleError.mock.calls[0]?.[0])).toMatch(
      /GET \/things\/1 response not as expected[\s\S]*name/,
    );
  });

  it("treats a success body that claims JSON but is not as an unexpected response", async () => {
    server.use(
      http.get(
        api("/things/1"),
        () => new HttpResponse("{not json", { headers: { "Content-Type": "application/json" } }),
      ),
    );
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    const { client } = clientWith();

    expect(await failure(client.get("/things/1", itemSchema))).toMatchObject({
      status: 500,
      code: "KE-API-501",
    });
  });
});

describe("error responses", () => {
  it("maps the platform's error body, field errors included", async () => {
    server.use(
      http.post(api("/environments"), () =>
        HttpResponse.json(
          { message: "Name is taken", code: "KE-ENV-409", fieldErrors: { name: ["Name is taken"] } },
          { status: 409 },
        ),
      ),
    );
    const { client, logs } = clientWith();

    const error = await failure(client.post("/environments", itemSchema, { name: "dev" }));

    expect(error).toBeInstanceOf(PlatformError);
    expect(error).toMatchObject({
      status: 409,
      message: "Name is taken",
      code: "KE-ENV-409",
      fieldErrors: { name: ["Name is taken"] },
      requestId: logs[0]?.requestId,
    });
  });

  it("uses a text body as the message", async () => {
    server.use(http.get(api("/missing"), () => HttpResponse.text("Not found", { status: 404 })));
    const { client } = clientWith();

    expect(await failure(client.get("/missing", itemSchema))).toMatchObject({
      status: 404,
      message: "Not found",
    });
  });

  it("falls back to the generic message for an empty or unrecognised body", async () => {
    server.use(
      http.post(api("/empty-error"), () => new HttpResponse(null, { status: 500 })),
      http.post(api("/odd-error"), () => HttpResponse.json({ error: "boom" }, { status: 400 })),
    );
    const { client } = clientWith();

    const empty = await failure(client.post("/empty-error", itemSchema));
    const odd = await failure(client.post("/odd-error", itemSchema));

    expect(empty).toMatchObject({ status: 500, message: errorMessages.generic });
    expect(empty.code).toBeUndefined();
    expect(odd).toMatchObject({ status: 400, message: errorMessages.generic });
  });

  it("reports a network failure as status 0 with the no-link message", async () => {
    server.use(http.post(api("/things"), () => HttpResponse.error()));
    const { client, logs } = clientWith();

    const error = await failure(client.post("/things", itemSchema, {}));

    expect(error).toMatchObject({
      status: 0,
      code: "NETWORK",
      message: "Could not establish link with server",
      requestId: logs[0]?.requestId,
    });
    expect(logs).toEqual([expect.objectContaining({ method: "POST", path: "/things", status: 0 })]);
  });

  it("gives up after the timeout and reports it as a network failure", async () => {
    const { requests, record } = recorder();
    server.use(
      http.post(api("/slow"), async ({ request }) => {
        record(request);
        await delay("infinite");
        return HttpResponse.json({});
      }),
    );
    const { client } = clientWith({ timeoutMs: 30 });

    const error = await failure(client.post("/slow", itemSchema));

    expect(error).toMatchObject({ status: 0, code: "NETWORK", message: errorMessages.noLink });
    expect(error.cause).toMatchObject({ name: "TimeoutError" });
    expect(requests).toHaveLength(1);
  });
});

describe("a caller that went away", () => {
  it("stops the call when its request is aborted (the browser left), and retries nothing", async () => {
    const { requests, record } = recorder();
    const browser = new AbortController();
    server.use(
      http.get(api("/slow"), async ({ request }) => {
        record(request);
        browser.abort();
        await delay("infinite");
        return HttpResponse.json({});
      }),
    );
    // A long time-out: only the abort can end the call within the test's time.
    const { client } = clientWith({ timeoutMs: 60_000, signal: browser.signal });

    const error = await failure(client.get("/slow", itemSchema));

    expect(error).toMatchObject({ status: 0, code: "NETWORK" });
    expect(requests).toHaveLength(1);
  }, 5_000);
});

describe("retries", () => {
  function failingWith(method: "get" | "post" | "put" | "patch" | "delete", path: string, status: number) {
    const { requests, record } = recorder();
    server.use(
      http[method](api(path), ({ request }) => {
        record(request);
        return HttpResponse.json({ message: `failed with ${status}` }, { status });
      }),
    );
    return requests;
  }

  it("defaults to three retries doubling from 1 s", () => {
    expect(DEFAULT_RETRY_DELAYS_MS).toEqual([1000, 2000, 4000]);
  });

  it("retries a GET answered 503 three times (four attempts) with a new request id each time", async () => {
    const requests = failingWith("get", "/flaky", 503);
    const { client, logs } = clientWith();

    const error = await failure(client.get("/flaky", itemSchema));

    expect(requests).toHaveLength(4);
    expect(new Set(requests.map((request) => request.headers.get("x-request-id"))).size).toBe(4);
    expect(error).toMatchObject({ status: 503, message: "failed with 503", requestId: logs[3]?.requestId });
  });

  it("returns the first success after a transient failure", async () => {
    let attempts = 0;
    server.use(
      http.get(api("/flaky"), () =>
        ++attempts === 1
          ? new HttpResponse(null, { status: 502 })
          : HttpResponse.json({ id: "1", name: "a" }),
      ),
    );
    const { client } = clientWith();

    await expect(client.get("/flaky", itemSchema)).resolves.toEqual({ id: "1", name: "a" });
    expect(attempts).toBe(2);
  });

  it("retries PUT and DELETE, which are idempotent", async () => {
    const puts = failingWith("put", "/put", 500);
    const deletes = failingWith("delete", "/delete", 500);
    const { client } = clientWith();

    await failure(client.put("/put", itemSchema, {}));
    await failure(client.delete("/delete", itemSchema));

    expect(puts).toHaveLength(4);
    expect(deletes).toHaveLength(4);
  });

  it("never retries POST, PATCH or an upload", async () => {
    const posts = failingWith("post", "/post", 503);
    const patches = failingWith("patch", "/patch", 503);
    const uploads = failingWith("post", "/upload", 503);
    const { client } = clientWith();

    await failure(client.post("/post", itemSchema, {}));
    await failure(client.patch("/patch", itemSchema, {}));
    await failure(client.upload("/upload", itemSchema, new FormData()));

    expect(posts).toHaveLength(1);
    expect(patches).toHaveLength(1);
    expect(uploads).toHaveLength(1);
  });

  it("retries a GET whose connection fails", async () => {
    let attempts = 0;
    server.use(
      http.get(api("/flaky"), () => {
        attempts++;
        return HttpResponse.error();
      }),
    );
    const { client, logs } = clientWith();

    expect(await failure(client.get("/flaky", itemSchema))).toMatchObject({ status: 0 });
    expect(attempts).toBe(4);
    expect(logs.map((entry) => entry.status)).toEqual([0, 0, 0, 0]);
  });

  it("does not retry 401, 404 or 501", async () => {
    const unauthorized = failingWith("get", "/unauthorized", 401);
    const missing = failingWith("get", "/missing", 404);
    const notImplemented = failingWith("get", "/not-implemented", 501);
    const { client } = clientWith();

    expect(await failure(client.get("/unauthorized", itemSchema))).toMatchObject({ status: 401 });
    await failure(client.get("/missing", itemSchema));
    await failure(client.get("/not-implemented", itemSchema));

    expect(unauthorized).toHaveLength(1);
    expect(missing).toHaveLength(1);
    expect(notImplemented).toHaveLength(1);
  });

  it("does not retry when the message says the refresh token is unknown or invalid", async () => {
    let attempts = 0;
    server.use(
      http.get(api("/session"), () => {
        attempts++;
        return HttpResponse.json({ message: "Unknown or invalid refresh token." }, { status: 500 });
      }),
    );
    const { client } = clientWith();

    expect(await failure(client.get("/session", itemSchema))).toMatchObject({
      status: 500,
      message: "Unknown or invalid refresh token.",
    });
    expect(attempts).toBe(1);
  });
});

describe("401 and token refresh", () => {
  it("asks for a fresh token once and repeats the call with it", async () => {
    const { requests, record } = recorder();
    server.use(
      http.get(api("/me"), ({ request }) => {
        record(request);
        return request.headers.get("authorization") === "Bearer token-2"
          ? HttpResponse.json({ id: "1", name: "me" })
          : HttpResponse.json({ message: "expired" }, { status: 401 });
      }),
    );
    const onUnauthorized = vi.fn(async () => "token-2");
    const { client } = clientWith({ onUnauthorized });

    await expect(client.get("/me", itemSchema)).resolves.toEqual({ id: "1", name: "me" });

    expect(onUnauthorized).toHaveBeenCalledTimes(1);
    expect(requests.map((request) => request.headers.get("authorization"))).toEqual([
      "Bearer token-1",
      "Bearer token-2",
    ]);
  });

  it("refreshes for a POST too, and gives up with 401 when the fresh token is also refused", async () => {
    const { requests, record } = recorder();
    server.use(
      http.post(api("/things"), ({ request }) => {
        record(request);
        return HttpResponse.json({ message: "expired" }, { status: 401 });
      }),
    );
    const onUnauthorized = vi.fn(async () => "token-2");
    const { client } = clientWith({ onUnauthorized });

    expect(await failure(client.post("/things", itemSchema, {}))).toMatchObject({
      status: 401,
      message: "expired",
    });
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
    expect(requests).toHaveLength(2);
  });

  it("throws PlatformError 401 when no fresh token can be had", async () => {
    const { requests, record } = recorder();
    server.use(
      http.get(api("/me"), ({ request }) => {
        record(request);
        return new HttpResponse(null, { status: 401 });
      }),
    );
    const onUnauthorized = vi.fn(async () => null);
    const { client } = clientWith({ onUnauthorized });

    expect(await failure(client.get("/me", itemSchema))).toMatchObject({
      status: 401,
      message: errorMessages.generic,
    });
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
    expect(requests).toHaveLength(1);
  });
});

describe("upload", () => {
  it("posts the form as multipart without a JSON content type", async () => {
    const { requests, record } = recorder();
    server.use(
      http.post(api("/serverless/upload"), async ({ request }) => {
        record(request);
        const file = (await request.formData()).get("file");
        return HttpResponse.json({ id: "f1", name: file instanceof File ? file.name : "missing" });
      }),
    );
    const form = new FormData();
    form.set("file", new File(["zip bytes"], "handler.zip", { type: "application/zip" }));
    const { client } = clientWith();

    await expect(client.upload("/serverless/upload", itemSchema, form)).resolves.toEqual({
      id: "f1",
      name: "handler.zip",
    });
    const request = requests[0];
    expect(request?.headers.get("content-type")).toMatch(/^multipart\/form-data; boundary=/);
    expect(request?.headers.get("authorization")).toBe("Bearer token-1");
    expect(request?.headers.get("accept")).toBe("application/json");
  });
});

describe("logging", () => {
  it("records method, path, status, duration and the request id sent", async () => {
    const { requests, record } = recorder();
    server.use(
      http.get(api("/things/1"), ({ request }) => {
        record(request);
        return HttpResponse.json({ id: "1", name: "a" });
      }),
    );
    const { client, logs } = clientWith();

    await client.get("/things/1", itemSchema, { query: { verbose: "1" } });

    expect(logs).toEqual([
      {
        method: "GET",
        path: "/things/1",
        status: 200,
        durationMs: expect.any(Number),
        requestId: requests[0]?.headers.get("x-request-id"),
      },
    ]);
  });

  it("writes one console line per request by default", async () => {
    server.use(http.get(api("/things/1"), () => HttpResponse.json({ id: "1", name: "a" })));
    const consoleInfo = vi.spyOn(console, "info").mockImplementation(() => undefined);
    const client = createPlatformClient({ baseUrl: BASE_URL, getAccessToken: async () => "token-1" });

    await client.get("/things/1", itemSchema);

    expect(consoleInfo).toHaveBeenCalledTimes(1);
    expect(String(consoleInfo.mock.calls[0]?.[0])).toMatch(
      /^platform GET \/things\/1 200 \d+ms request-id=[0-9a-f-]{36}$/,
    );
  });
});

describe("isPlatformError", () => {
  it("recognises only PlatformError", () => {
    expect(isPlatformError(new PlatformError({ status: 404, message: "x", requestId: "r" }))).toBe(true);
    expect(isPlatformError(new Error("x"))).toBe(false);
    expect(isPlatformError({ status: 404, message: "x" })).toBe(false);
  });
});
