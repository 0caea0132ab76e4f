import { loadRouteModule } from "@remix-run/react/dist/routeModules.js";
import type { EntryRoute } from "@remix-run/react/dist/routes";
import type { RouteModule, RouteModules } from "@remix-run/react/dist/routeModules";
import { describe, expect, it, vi } from "vitest";
import {
  CHUNK_RELOAD_KEY_PREFIX,
  decideAfterChunkLoadFailure,
  guardRouteModules,
  moduleThatThrows,
  recordChunkLoadSuccess,
  recordLoadedScreens,
  type MarkStorage,
} from "./chunk-load";

function memoryStorage(): MarkStorage & { entries: Map<string, string> } {
  const entries = new Map<string, string>();
  return {
    entries,
    getItem: (key) => entries.get(key) ?? null,
    setItem: (key, value) => void entries.set(key, value),
    removeItem: (key) => void entries.delete(key),
  };
}

const screen = "routes/_app.environments.create";

describe("the chunk-load rule", () => {
  it("reloads on the first failure and marks the screen", () => {
    const storage = memoryStorage();
    expect(decideAfterChunkLoadFailure(storage, screen)).toEqual({ action: "reload" });
    expect(storage.entries.has(`${CHUNK_RELOAD_KEY_PREFIX}${screen}`)).toBe(true);
  });

  it("fails with chunkLoadError on the second failure of the same screen", () => {
    const storage = memoryStorage();
    decideAfterChunkLoadFailure(storage, screen);
    const cause = new TypeError("Failed to fetch dynamically imported module");
    const decision = decideAfterChunkLoadFailure(storage, screen, cause);
    expect(decision.action).toBe("fail");
    if (decision.action !== "fail") return;
    expect(decision.error.message.startsWith("chunkLoadError")).toBe(true);
    expect(decision.error.cause).toBe(cause);
  });

  it("counts each screen on its own", () => {
    const storage = memoryStorage();
    decideAfterChunkLoadFailure(storage, screen);
    expect(decideAfterChunkLoadFailure(storage, "routes/_app.environments._index")).toEqual({
      action: "reload",
    });
  });

  it("forgets the reload once the screen loads, so a later failure reloads again", () => {
    const storage = memoryStorage();
    decideAfterChunkLoadFailure(storage, screen);
    recordChunkLoadSuccess(storage, screen);
    expect(storage.entries.size).toBe(0);
    expect(decideAfterChunkLoadFailure(storage, screen)).toEqual({ action: "reload" });
  });

  it("screens that came with the page count as loaded", () => {
    const storage = memoryStorage();
    decideAfterChunkLoadFailure(storage, screen);
    recordLoadedScreens(storage, ["root", screen]);
    expect(storage.entries.size).toBe(0);
  });

  it("fails instead of reloading when session storage is unavailable (no way to stop a loop)", () => {
    const refusing: MarkStorage = {
      getItem: () => {
        throw new Error("SecurityError");
      },
      setItem: () => undefined,
      removeItem: () => undefined,
    };
    expect(decideAfterChunkLoadFailure(refusing, screen).action).toBe("fail");
    expect(decideAfterChunkLoadFailure(null, screen).action).toBe("fail");
  });
});

describe("guardRouteModules inside Remix's own loadRouteModule", () => {
  const route = { id: screen, module: "/build/routes/create.js" } as EntryRoute;
  const createModule = { default: () => null } as unknown as RouteModule;

  function setup(importModule: (url: string) => Promise<RouteModule>) {
    const storage = memoryStorage();
    const reload = vi.fn();
    const cache: RouteModules = {};
    const guarded = guardRouteModules(cache, {
      moduleUrl: (routeId) => (routeId === route.id ? route.module : undefined),
      importModule,
      storage,
      reload,
      failedModule: (error) => moduleThatThrows(error) as unknown as RouteModule,
    });
    return { storage, reload, cache, guarded };
  }

  it("loads the module through the guard, caches it and clears the screen's mark", async () => {
    const importModule = vi.fn(async () => createModule);
    const { storage, reload, cache, guarded } = setup(importModule);
    storage.setItem(`${CHUNK_RELOAD_KEY_PREFIX}${screen}`, "earlier");
    await expect(loadRouteModule(route, guarded)).resolves.toBe(createModule);
    expect(importModule).toHaveBeenCalledWith(route.module);
    expect(cache[screen]).toBe(createModule);
    expect(storage.entries.size).toBe(0);
    expect(reload).not.toHaveBeenCalled();
    await expect(loadRouteModule(route, guarded)).resolves.toBe(createModule);
    expect(importModule).toHaveBeenCalledTimes(1);
  });

  it("reloads the page once on the first failure and never settles", async () => {
    const { storage, reload, guarded } = setup(async () => {
      throw new TypeError("Failed to fetch dynamically imported module");
    });
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    let settled = false;
    void loadRouteModule(route, guarded).finally(() => {
      settled = true;
    });
    await vi.waitFor(() => expect(reload).toHaveBeenCalledTimes(1));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(settled).toBe(false);
    expect(storage.entries.has(`${CHUNK_RELOAD_KEY_PREFIX}${screen}`)).toBe(true);
  });

  it("on the second failure hands Remix a screen that throws chunkLoadError, without reloading", async () => {
    const cause = new TypeError("Failed to fetch dynamically imported module");
    const { storage, reload, cache, guarded } = setup(async () => {
      throw cause;
    });
    storage.setItem(`${CHUNK_RELOAD_KEY_PREFIX}${screen}`, "after the first reload");
    const failed = await loadRouteModule(route, guarded);
    expect(reload).not.toHaveBeenCalled();
    expect(cache[screen]).toBe(failed);
    const Screen = failed.default as () => never;
    expect(() => Screen()).toThrow(/^chunkLoadError/);
    try {
      Screen();
    } catch (error) {
      expect((error as Error).cause).toBe(cause);
    }
  });

  it("shares one import between concurrent loads of the same screen", async () => {
    const importModule = vi.fn(async () => createModule);
    const { guarded } = setup(importModule);
    const [first, second] = await Promise.all([
      loadRouteModule(route, guarded),
      loadRouteModule(route, guarded),
    ]);
    expect(first).toBe(createModule);
    expect(second).toBe(createModule);
    expect(importModule).toHaveBeenCalledTimes(1);
  });

  it("leaves every other read of the cache alone", async () => {
    const { cache, guarded } = setup(async () => createModule);
    cache.root = createModule;
    expect(guarded[screen]).toBeUndefined();
    expect("root" in guarded).toBe(true);
    expect("routes/unknown" in guarded).toBe(false);
    expect(Object.keys(guarded)).toEqual(["root"]);
    // An `in` check that is not followed by a read is forgotten at the next microtask.
    expect(screen in guarded).toBe(true);
    await Promise.resolve();
    expect(guarded[screen]).toBeUndefined();
  });
});
