import { HttpResponse, http } from "msw";
import { describe, expect, it } from "vitest";
import { FAKE_PLATFORM_URL, fakePlatform } from "~/platform/fake-platform.test-support";
import { applyEnvImport, EnvImportRejected, lineErrorsOf } from "./env-import.server";
import type { EnvImportPreview } from "./env-import";

const BASE_URL = FAKE_PLATFORM_URL;
const variables = `${BASE_URL}/api/v2/organizations/t1/environments/w1/environment-variables`;

const { server, api } = fakePlatform();

const preview: EnvImportPreview = {
  added: [{ name: "NEW_ONE", value: "n", line: 4 }],
  changed: [{ id: "v1", name: "DEBUG", value: "true", line: 2, secret: false }],
  unchanged: ["REGION"],
};

describe("applyEnvImport", () => {
  it("writes the changed and the new variables in one platform call", async () => {
    const calls: { method: string; path: string; body: unknown }[] = [];
    server.use(
      http.all(`${variables}*`, async ({ request }) => {
        calls.push({
          method: request.method,
          path: new URL(request.url).pathname,
          body: await request.json(),
        });
        return HttpResponse.json({ envVariables: [] });
      }),
    );
    await applyEnvImport(api, "t1", "w1", preview, { secret: true });
    expect(calls).toEqual([
      {
        method: "PUT",
        path: "/api/v2/organizations/t1/environments/w1/environment-variables/import",
        body: {
          envVariables: [
            { name: "DEBUG", value: "true", secret: true },
            { name: "NEW_ONE", value: "n", secret: true },
          ],
        },
      },
    ]);
  });

  it("reports the entries the platform refuses by their line in the file", async () => {
    server.use(
      http.put(`${variables}/import`, () =>
        HttpResponse.json(
          {
            message: "Invalid request",
            code: "VALIDATION_FAILED",
            fieldErrors: { "envVariables.1.value": ["Value must be at most 32768 characters"] },
          },
          { status: 400 },
        ),
      ),
    );
    const rejected = await applyEnvImport(api, "t1", "w1", preview, { secret: false }).catch(
      (error: unknown) => error,
    );
    expect(rejected).toBeInstanceOf(EnvImportRejected);
    expect((rejected as EnvImportRejected).lineErrors).toEqual([
      "Line 4 (NEW_ONE): Value must be at most 32768 characters",
    ]);
  });

  it("makes no call when nothing changes", async () => {
    await applyEnvImport(api, "t1", "w1", { added: [], changed: [], unchanged: ["A"] }, { secret: false });
  });
});

describe("lineErrorsOf", () => {
  it("orders the messages by line and keeps one it cannot place", () => {
    const written = [
      { name: "B", value: "", line: 9 },
      { name: "A", value: "", line: 3 },
    ];
    expect(
      lineErrorsOf(written, {
        "envVariables.0.name": ["bad"],
        "envVariables.1.value": ["too long"],
        envVariables: ["too many"],
      }),
    ).toEqual(["Line 3 (A): too long", "Line 9 (B): bad", "too many"]);
  });
});
