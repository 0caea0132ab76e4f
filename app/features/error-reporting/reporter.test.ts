import { describe, expect, it, vi } from "vitest";
import { parseAppEnv } from "~/env.server";
import {
  classifyHostname,
  createErrorReporter,
  fitPayload,
  IGNORED_MESSAGE,
  MAX_ITEMS_PER_MINUTE,
  MAX_PAYLOAD_BYTES,
  MAX_TELEMETRY_EVENTS,
  type ErrorReporterOptions,
} from "./reporter";
import { errorReportingConnectSources, publicErrorReportingConfig } from "./error-reporting.server";

type Item = {
  access_token?: string;
  data: {
    environment: string;
    level: string;
    timestamp: number;
    request?: { url: string };
    body: {
      telemetry: { type: string; body: Record<string, unknown>; timestamp_ms: number }[];
      trace?: {
        frames: { filename: string; method?: string }[];
        exception: { class: string; message: string };
      };
      message?: { body: string };
    };
    custom?: Record<string, unknown>;
  };
};

function setup(overrides: Partial<ErrorReporterOptions> = {}) {
  let time = Date.UTC(2025, 0, 1);
  const sent: { endpoint: string; body: string }[] = [];
  const out = { error: vi.fn() };
  const reporter = createErrorReporter({
    config: { endpoint: "https://errors.example.com/api/1/item/", token: "post-client-token" },
    hostname: "app.example.com",
    platform: "browser",
    now: () => time,
    send: (endpoint, body) => sent.push({ endpoint, body }),
    console: out,
    newId: () => "uuid",
    ...overrides,
  });
  const items = () => sent.map((entry) => JSON.parse(entry.body) as Item);
  return { reporter, sent, items, out, advance: (ms: number) => (time += ms) };
}

describe("error reporter", () => {
  it("sends a Rollbar-shaped item with the stack, environment and token", () => {
    const { reporter, sent, items, out } = setup();
    expect(reporter.enabled).toBe(true);
    expect(reporter.report(new TypeError("boom"), { url: "https://app.example.com/env/dev" })).toBe("sent");
    expect(sent[0]?.endpoint).toBe("https://errors.example.com/api/1/item/");
    const [item] = items();
    expect(item).toMatchObject({
      access_token: "post-client-token",
      data: {
        environment: "production",
        level: "error",
        timestamp: Date.UTC(2025, 0, 1) / 1000,
        request: { url: "https://app.example.com/env/dev" },
        body: { trace: { exception: { class: "TypeError", message: "boom" } }, telemetry: [] },
      },
    });
    expect(item?.data.body.trace?.frames.at(-1)?.filename).toMatch(/reporter\.test\.ts$/);
    expect(out.error).not.toHaveBeenCalled();
  });

  it("ignores 'Item sent with null or missing arguments' without sending or logging", () => {
    const { reporter, sent, out } = setup();
    expect(reporter.report(new Error(IGNORED_MESSAGE))).toBe("ignored");
    expect(reporter.report(`Rollbar: ${IGNORED_MESSAGE}`)).toBe("ignored");
    expect(sent).toEqual([]);
    expect(out.error).not.toHaveBeenCalled();
    expect(reporter.report("something else")).toBe("sent");
  });

  it("is off on local hostnames and reports to the console instead", () => {
    for (const hostname of ["localhost", "127.0.0.1", "[::1]", "tenant.localhost", "localhost.example.com"]) {
      const { reporter, sent, out } = setup({ hostname });
      expect(reporter.enabled).toBe(false);
      expect(reporter.report(new Error("local"))).toBe("disabled");
      expect(sent).toEqual([]);
      expect(out.error).toHaveBeenCalledOnce();
    }
  });

  it("without an endpoint reports to the console only", () => {
    const { reporter, sent, out } = setup({ config: { endpoint: null, token: null } });
    expect(reporter.enabled).toBe(false);
    const error = new Error("no endpoint");
    expect(reporter.report(error)).toBe("console");
    expect(sent).toEqual([]);
    expect(out.error).toHaveBeenCalledWith(error);
  });

  it("sends at most 60 items a minute", () => {
    const { reporter, sent, out, advance } = setup();
    for (let index = 0; index < MAX_ITEMS_PER_MINUTE; index++) {
      expect(reporter.report(new Error(`e${index}`))).toBe("sent");
      advance(500);
    }
    expect(reporter.report(new Error("one too many"))).toBe("rate-limited");
    expect(sent).toHaveLength(60);
    expect(out.error).toHaveBeenCalledOnce();
    // The window opened with the first item, 30 s ago; it closes 60 s after it.
    advance(60_000 - 30_000 - 1);
    expect(reporter.report(new Error("still limited"))).toBe("rate-limited");
    advance(1);
    expect(reporter.report(new Error("next minute"))).toBe("sent");
    expect(sent).toHaveLength(61);
  });

  it("keeps the last 100 telemetry events and attaches them to items", () => {
    const { reporter, items, advance } = setup();
    for (let index = 0; index < MAX_TELEMETRY_EVENTS + 5; index++) {
      reporter.recordTelemetry({ type: "navigation", body: { to: `/page-${index}` } });
      advance(1);
    }
    reporter.report(new Error("with breadcrumbs"));
    const telemetry = items()[0]?.data.body.telemetry ?? [];
    expect(telemetry).toHaveLength(100);
    expect(telemetry[0]?.body).toEqual({ to: "/page-5" });
    expect(telemetry.at(-1)).toMatchObject({ type: "navigation", level: "info", body: { to: "/page-104" } });
  });

  it("drops telemetry, then truncates, to stay within 524288 bytes", () => {
    const { reporter, items } = setup();
    for (let index = 0; index < MAX_TELEMETRY_EVENTS; index++) {
      reporter.recordTelemetry({ type: "log", body: { line: "x".repeat(6000) } });
    }
    reporter.report(new Error("big telemetry"), { custom: { note: "kept" } });
    expect(items()[0]?.data.body.telemetry).toEqual([]);
    expect(items()[0]?.data.custom).toEqual({ note: "kept" });

    reporter.report(new Error("huge custom"), { custom: { dump: "y".repeat(MAX_PAYLOAD_BYTES) } });
    const dump = items()[1]?.data.custom?.dump;
    expect(typeof dump === "string" && dump.length).toBe(1025);
  });

  it("does not send an item that stays too large after truncation", () => {
    const { reporter, sent, out } = setup();
    const custom = Object.fromEntries(
      Array.from({ length: 2000 }, (_, index) => [`k${index}`, "z".repeat(500)]),
    );
    expect(reporter.report(new Error("too large"), { custom })).toBe("too-large");
    expect(sent).toEqual([]);
    expect(out.error).toHaveBeenCalledOnce();
  });

  it("measures the limit in bytes, not characters", () => {
    const fits = { data: { body: { telemetry: [] }, text: "é".repeat(200_000) } };
    expect(fitPayload(fits)?.length).toBeGreaterThan(200_000);
    const overflows = { data: { body: { telemetry: [] }, text: "é".repeat(270_000) } };
    const json = fitPayload(overflows) ?? "";
    expect(new TextEncoder().encode(json).length).toBeLessThanOrEqual(MAX_PAYLOAD_BYTES);
    expect(json).toContain("…");
  });

  it("reports strings and other values as messages", () => {
    const { reporter, items } = setup();
    reporter.report("plain message", { level: "warning" });
    reporter.report({ code: 42 });
    expect(items()[0]?.data).toMatchObject({
      level: "warning",
      body: { message: { body: "plain message" } },
    });
    expect(items()[1]?.data.body.message?.body).toBe('{"code":42}');
  });
});

describe("hostname classification (SPEC §9 first labels)", () => {
  it("knows local, development, staging and production hosts", () => {
    expect(classifyHostname("localhost")).toBe("local");
    expect(classifyHostname("127.0.0.1")).toBe("local");
    expect(classifyHostname("0.0.0.0")).toBe("local");
    expect(classifyHostname("app-dev.example.com")).toBe("development");
    expect(classifyHostname("staging.example.com")).toBe("staging");
    expect(classifyHostname("app.example.com")).toBe("production");
    expect(classifyHostname("console.customer.io")).toBe("production");
  });
});

describe("error reporting configuration", () => {
  const base = { SESSION_SECRET: "s".repeat(32), AUTH0_CLIENT_SECRET: "c" };

  it("defaults to console only and exposes the endpoint's origin for the CSP", () => {
    const off = parseAppEnv(base);
    expect(publicErrorReportingConfig(off)).toEqual({ endpoint: null, token: null });
    expect(errorReportingConnectSources(off)).toEqual([]);
    const on = parseAppEnv({
      ...base,
      ERROR_REPORTING_URL: "https://api.rollbar.com/api/1/item/",
      ERROR_REPORTING_TOKEN: "client-token",
    });
    expect(publicErrorReportingConfig(on)).toEqual({
      endpoint: "https://api.rollbar.com/api/1/item/",
      token: "client-token",
    });
    expect(errorReportingConnectSources(on)).toEqual(["https://api.rollbar.com"]);
  });
});
