import { describe, expect, it, vi } from "vitest";
import { parseAppEnv } from "~/env.server";
import {
  ANALYTICS_IDENTITY_KEY,
  createAnalytics,
  selectFlagVariant,
  type AnalyticsConfig,
  type AnalyticsDependencies,
} from "./analytics";
import { analyticsConnectSources, publicAnalyticsConfig } from "./analytics.server";

const config: AnalyticsConfig = {
  host: "https://analytics.example.com/",
  key: "phc_public",
  flagVariant: "dev",
};
const at = new Date("2025-01-02T03:04:05.000Z");

function memoryStorage() {
  const values = new Map<string, string>();
  return {
    getItem: (key: string) => values.get(key) ?? null,
    setItem: (key: string, value: string) => void values.set(key, value),
    values,
  };
}

function setup(overrides: AnalyticsDependencies = {}) {
  const sent: { url: string; body: Record<string, unknown> }[] = [];
  const storage = memoryStorage();
  let ids = 0;
  const fetch = vi.fn<typeof globalThis.fetch>(async () => Response.json({}));
  const analytics = createAnalytics(config, {
    send: (url, body) => sent.push({ url, body: JSON.parse(body) as Record<string, unknown> }),
    storage,
    fetch,
    now: () => at,
    newId: () => `anon-${++ids}`,
    ...overrides,
  });
  return { analytics, sent, storage, fetch };
}

describe("analytics capture", () => {
  it("posts PostHog's capture shape with the organization id added", () => {
    const { analytics, sent } = setup();
    analytics.setOrganization("tenant-1");
    analytics.capture("Terraform Downloaded", { region: "us-east-1" });
    expect(sent).toEqual([
      {
        url: "https://analytics.example.com/capture/",
        body: {
          api_key: "phc_public",
          event: "Terraform Downloaded",
          distinct_id: "anon-1",
          timestamp: "2025-01-02T03:04:05.000Z",
          properties: { region: "us-east-1", organizationId: "tenant-1", $lib: "cloud-console" },
        },
      },
    ]);
  });

  it("adds no organization id before one is known", () => {
    const { analytics, sent } = setup();
    analytics.capture("Opened");
    expect(sent[0]?.body.properties).toEqual({ $lib: "cloud-console" });
  });
});

describe("analytics identify and reset", () => {
  it("identifies by e-mail and id with email and name, merging the anonymous id once", () => {
    const { analytics, sent } = setup();
    const ada = { id: "auth0|ada", email: "ada@example.com", name: "Ada Lovelace" };
    analytics.identify(ada);
    analytics.identify(ada);
    expect(sent).toHaveLength(1);
    expect(sent[0]?.body).toMatchObject({
      event: "$identify",
      distinct_id: "ada@example.com:auth0|ada",
      properties: { $anon_distinct_id: "anon-1", $set: { email: "ada@example.com", name: "Ada Lovelace" } },
    });
    analytics.capture("Clicked");
    expect(sent[1]?.body.distinct_id).toBe("ada@example.com:auth0|ada");
  });

  it("keeps the identity across page loads through storage", () => {
    const storage = memoryStorage();
    const first = setup({ storage });
    first.analytics.identify({ id: "1", email: "a@b.c", name: "A" });
    const second = setup({ storage });
    second.analytics.identify({ id: "1", email: "a@b.c", name: "A" });
    expect(second.sent).toEqual([]);
    second.analytics.capture("Reloaded");
    expect(second.sent[0]?.body.distinct_id).toBe("a@b.c:1");
  });

  it("reset forgets the user and organization and never merges the next user into the previous one", () => {
    const { analytics, sent, storage } = setup();
    analytics.setOrganization("tenant-1");
    analytics.identify({ id: "1", email: "a@b.c", name: "A" });
    analytics.reset();
    expect(JSON.parse(storage.getItem(ANALYTICS_IDENTITY_KEY) ?? "")).toEqual({
      distinctId: "anon-2",
      identified: false,
    });
    analytics.capture("After logout");
    expect(sent[1]?.body).toMatchObject({ distinct_id: "anon-2", properties: { $lib: "cloud-console" } });
    expect(sent[1]?.body.properties).not.toHaveProperty("organizationId");

    analytics.identify({ id: "2", email: "d@e.f", name: "D" });
    analytics.identify({ id: "3", email: "g@h.i", name: "G" });
    expect(sent[2]?.body.properties).toMatchObject({ $anon_distinct_id: "anon-2" });
    expect(sent[3]?.body.properties).not.toHaveProperty("$anon_distinct_id");
  });
});

describe("analytics flag payloads", () => {
  it("reads payloads once from decide and picks the configured variant", async () => {
    const fetch = vi.fn<typeof globalThis.fetch>(async () =>
      Response.json({
        featureFlagPayloads: {
          "feature-flags": JSON.stringify({ prod: { alarms: false }, dev: { alarms: true } }),
          banner: { text: "hello" },
        },
      }),
    );
    const { analytics } = setup({ fetch });
    await expect(analytics.featureFlagPayload("feature-flags")).resolves.toEqual({ alarms: true });
    await expect(analytics.featureFlagPayload("banner")).resolves.toEqual({ text: "hello" });
    await expect(analytics.featureFlagPayload("missing")).resolves.toBeUndefined();
    expect(fetch).toHaveBeenCalledTimes(1);
    const [url, init] = fetch.mock.calls[0] ?? [];
    expect(url).toBe("https://analytics.example.com/decide/?v=3");
    expect(JSON.parse(String(init?.body))).toEqual({ api_key: "phc_public", distinct_id: "anon-1" });
  });

  it("gives undefined when the service fails", async () => {
    const fetch = vi.fn<typeof globalThis.fetch>(async () => {
      throw new TypeError("offline");
    });
    const { analytics } = setup({ fetch });
    await expect(analytics.featureFlagPayload("feature-flags")).resolves.toBeUndefined();
  });

  it("chooses prod or dev by deployment", () => {
    const payload = { prod: "p", dev: "d" };
    expect(selectFlagVariant(payload, "prod")).toBe("p");
    expect(selectFlagVariant(payload, "dev")).toBe("d");
    expect(selectFlagVariant([1], "prod")).toEqual([1]);
  });
});

describe("analytics without configuration", () => {
  it("does nothing at all", async () => {
    const send = vi.fn();
    const fetch = vi.fn<typeof globalThis.fetch>();
    const storage = memoryStorage();
    const analytics = createAnalytics(null, { send, fetch, storage });
    analytics.setOrganization("t");
    analytics.identify({ id: "1", email: "a@b.c", name: "A" });
    analytics.capture("Anything");
    analytics.reset();
    await expect(analytics.featureFlagPayload("feature-flags")).resolves.toBeUndefined();
    expect(analytics.enabled).toBe(false);
    expect(send).not.toHaveBeenCalled();
    expect(fetch).not.toHaveBeenCalled();
    expect(storage.values.size).toBe(0);
  });
});

describe("analytics configuration", () => {
  const base = { SESSION_SECRET: "s".repeat(32), AUTH0_CLIENT_SECRET: "c" };

  it("is off unless both host and key are set, and both or neither must be", () => {
    const env = parseAppEnv(base);
    expect(publicAnalyticsConfig(env)).toBeNull();
    expect(analyticsConnectSources(env)).toEqual([]);
    expect(() => parseAppEnv({ ...base, ANALYTICS_KEY: "phc" })).toThrow(/ANALYTICS_HOST/);
  });

  it("hands the browser only the host, public key and variant", () => {
    const env = parseAppEnv({
      ...base,
      NODE_ENV: "production",
      ANALYTICS_HOST: "https://eu.i.posthog.com/",
      ANALYTICS_KEY: "phc_public",
    });
    expect(publicAnalyticsConfig(env)).toEqual({
      host: "https://eu.i.posthog.com",
      key: "phc_public",
      flagVariant: "prod",
    });
    expect(analyticsConnectSources(env)).toEqual(["https://eu.i.posthog.com"]);
    const dev = parseAppEnv({ ...base, ANALYTICS_HOST: "http://localhost:8010", ANALYTICS_KEY: "k" });
    expect(publicAnalyticsConfig(dev)?.flagVariant).toBe("dev");
  });
});
