import { describe, expect, it } from "vitest";
import { createDiagnosticLogger } from "./diagnostics.server";

function setup() {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const log = createDiagnosticLogger({
    stdout: (line) => stdout.push(line),
    stderr: (line) => stderr.push(line),
    now: () => new Date("2025-03-04T05:06:07.000Z"),
  });
  return { log, stdout, stderr };
}

describe("logDiagnostic", () => {
  it("writes one JSON line with the page as host plus path", () => {
    const { log, stdout, stderr } = setup();
    log({
      action: "Environment selected",
      level: "info",
      request: new Request("https://app.example.com:8443/env/dev/services?tab=1#x"),
      tenantId: "tenant-1",
      userId: "auth0|ada",
      email: "ada@example.com",
    });
    expect(stderr).toEqual([]);
    expect(stdout).toHaveLength(1);
    const line = stdout[0] ?? "";
    expect(line.endsWith("\n")).toBe(true);
    expect(line.trimEnd()).not.toContain("\n");
    expect(JSON.parse(line)).toEqual({
      action: "Environment selected",
      level: "info",
      pageUrl: "app.example.com:8443/env/dev/services",
      tenantId: "tenant-1",
      userId: "auth0|ada",
      email: "ada@example.com",
      timestamp: "2025-03-04T05:06:07.000Z",
    });
  });

  it("fills in unknown-tenant, unknown-user and unknown-email", () => {
    const { log, stderr } = setup();
    const record = log({ action: "User is not authenticated", level: "warn", tenantId: "", userId: null });
    expect(record).toMatchObject({
      pageUrl: "unknown-page",
      tenantId: "unknown-tenant",
      userId: "unknown-user",
      email: "unknown-email",
    });
    expect(JSON.parse(stderr[0] ?? "")).toEqual(record);
  });

  it("sends errors to stderr with the exception described", () => {
    const { log, stdout, stderr } = setup();
    log({
      action: "Organization has no tenant id",
      level: "error",
      request: new Request("http://localhost:3000/"),
      error: new RangeError("missing tenant_id"),
    });
    expect(stdout).toEqual([]);
    const record = JSON.parse(stderr[0] ?? "") as Record<string, unknown>;
    expect(record).toMatchObject({
      level: "error",
      pageUrl: "localhost:3000/",
      error: { name: "RangeError", message: "missing tenant_id" },
    });
    log({ action: "odd", level: "error", error: "a string" });
    expect(JSON.parse(stderr[1] ?? "")).toMatchObject({ error: { name: "NonError", message: "a string" } });
  });
});
