import { describe, expect, it, vi } from "vitest";
import { featureFlagsSchema } from "#contract/feature-flag-schemas";
import { PlatformError, type PlatformClient } from "~/platform/client.server";
import { createFeatureFlagCache, FEATURE_FLAGS_TTL_MS } from "./flags.server";
import { defaultFeatureFlags, isFeatureEnabled } from "./flag-values";

type Answer = () => Promise<unknown>;

/** A platform client whose GET answers come from `answer`; every other method is unexpected here. */
function fakeClient(answer: Answer = async () => ({ featureFlags: { alarms: true } })) {
  const get = vi.fn(async (path: string, schema: unknown) => {
    expect(schema).toBe(featureFlagsSchema);
    expect(path).toMatch(/^\/v2\/feature-flags\?/);
    return answer();
  });
  const unexpected = () => Promise.reject(new Error("not used by feature flags"));
  const api = {
    get,
    post: unexpected,
    put: unexpected,
    patch: unexpected,
    delete: unexpected,
    upload: unexpected,
  } as unknown as PlatformClient;
  return { api, get };
}

function fakeClock(start = 1_000_000) {
  let time = start;
  return { now: () => time, advance: (ms: number) => (time += ms) };
}

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (reason: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe("feature flag cache", () => {
  it("asks the platform with the organization and environment in the query", async () => {
    const { api, get } = fakeClient();
    const cache = createFeatureFlagCache();
    await expect(cache.get(api, { tenantId: "t-1", environmentId: "e-1" })).resolves.toEqual({
      alarms: true,
    });
    expect(get).toHaveBeenCalledWith(
      "/v2/feature-flags?organizationId=t-1&environmentId=e-1",
      featureFlagsSchema,
    );
    await cache.get(api, { tenantId: "t-2" });
    expect(get).toHaveBeenLastCalledWith("/v2/feature-flags?organizationId=t-2", featureFlagsSchema);
  });

  it("serves a hit within 5 minutes and asks again after", async () => {
    const clock = fakeClock();
    const { api, get } = fakeClient();
    const cache = createFeatureFlagCache({ now: clock.now });
    await cache.get(api, { tenantId: "t" });
    clock.advance(FEATURE_FLAGS_TTL_MS - 1);
    await cache.get(api, { tenantId: "t" });
    expect(get).toHaveBeenCalledTimes(1);
    clock.advance(1);
    await cache.get(api, { tenantId: "t" });
    expect(get).toHaveBeenCalledTimes(2);
  });

  it("keeps separate entries per organization and per environment", async () => {
    const { api, get } = fakeClient();
    const cache = createFeatureFlagCache({ now: fakeClock().now });
    await cache.get(api, { tenantId: "t-1" });
    await cache.get(api, { tenantId: "t-1", environmentId: "e-1" });
    await cache.get(api, { tenantId: "t-1", environmentId: "e-2" });
    await cache.get(api, { tenantId: "t-2", environmentId: "e-1" });
    expect(get).toHaveBeenCalledTimes(4);
    await cache.get(api, { tenantId: "t-1", environmentId: "e-2" });
    expect(get).toHaveBeenCalledTimes(4);
    expect(cache.size).toBe(4);
  });

  it("shares one request between concurrent misses of the same key", async () => {
    const answer = deferred<unknown>();
    const { api, get } = fakeClient(() => answer.promise);
    const cache = createFeatureFlagCache({ now: fakeClock().now });
    const first = cache.get(api, { tenantId: "t", environmentId: "e" });
    const second = cache.get(api, { tenantId: "t", environmentId: "e" });
    expect(get).toHaveBeenCalledTimes(1);
    answer.resolve({ featureFlags: { "users-v2": true } });
    await expect(first).resolves.toEqual({ "users-v2": true });
    await expect(second).resolves.toEqual({ "users-v2": true });
  });

  it("does not cache errors: every waiter sees the error and the next call asks again", async () => {
    const failure = new PlatformError({ status: 503, message: "down", requestId: "r" });
    const answers = [deferred<unknown>(), deferred<unknown>()];
    let call = 0;
    const { api, get } = fakeClient(() => (answers[call++] ?? deferred<unknown>()).promise);
    const cache = createFeatureFlagCache({ now: fakeClock().now });
    const first = cache.get(api, { tenantId: "t" });
    const second = cache.get(api, { tenantId: "t" });
    answers[0]?.reject(failure);
    await expect(first).rejects.toBe(failure);
    await expect(second).rejects.toBe(failure);
    expect(cache.size).toBe(0);

    const retry = cache.get(api, { tenantId: "t" });
    answers[1]?.resolve({ featureFlags: { alarms: false } });
    await expect(retry).resolves.toEqual({ alarms: false });
    expect(get).toHaveBeenCalledTimes(2);
  });

  it("measures the 5 minutes from the answer, not from the question", async () => {
    const clock = fakeClock();
    const answer = deferred<unknown>();
    const { api, get } = fakeClient(() => answer.promise);
    const cache = createFeatureFlagCache({ now: clock.now });
    const pending = cache.get(api, { tenantId: "t" });
    clock.advance(FEATURE_FLAGS_TTL_MS * 2);
    expect(cache.get(api, { tenantId: "t" })).toBe(pending);
    answer.resolve({ featureFlags: {} });
    await pending;
    clock.advance(FEATURE_FLAGS_TTL_MS - 1);
    await cache.get(api, { tenantId: "t" });
    expect(get).toHaveBeenCalledTimes(1);
  });

  it("is bounded: the least recently fetched key goes first", async () => {
    const { api, get } = fakeClient();
    const cache = createFeatureFlagCache({ now: fakeClock().now, maxEntries: 2 });
    await cache.get(api, { tenantId: "a" });
    await cache.get(api, { tenantId: "b" });
    await cache.get(api, { tenantId: "c" });
    expect(cache.size).toBe(2);
    await cache.get(api, { tenantId: "c" });
    await cache.get(api, { tenantId: "b" });
    expect(get).toHaveBeenCalledTimes(3);
    await cache.get(api, { tenantId: "a" });
    expect(get).toHaveBeenCalledTimes(4);
  });
});

describe("flag values", () => {
  it("fall back to the contract defaults for flags the platform did not name", () => {
    expect(isFeatureEnabled({ alarms: true }, "alarms")).toBe(true);
    expect(isFeatureEnabled({}, "alarms")).toBe(false);
    expect(isFeatureEnabled(undefined, "users-v2")).toBe(true);
    expect(defaultFeatureFlags()).toMatchObject({ "multi-container": false, "rbac-permissions-ui": true });
  });
});
