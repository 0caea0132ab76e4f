/**
 * SPEC §2.1 and §8, screen load failure: when a screen's script (a Remix route module) fails to load, the page
 * reloads once, remembered per screen (route id) in session storage; a second failure raises an error whose
 * message starts with "chunkLoadError", which the error boundary shows. A successful load forgets the reload.
 */

export const CHUNK_LOAD_ERROR = "chunkLoadError";
/** Session-storage key prefix; the route id follows. */
export const CHUNK_RELOAD_KEY_PREFIX = "chunk-load-reloaded:";

export type MarkStorage = Pick<Storage, "getItem" | "setItem" | "removeItem">;

export type ChunkLoadDecision = { action: "reload" } | { action: "fail"; error: Error };

export function chunkLoadError(screen: string, cause?: unknown): Error {
  return new Error(`${CHUNK_LOAD_ERROR}: the script of screen "${screen}" could not be loaded`, { cause });
}

function markKey(screen: string): string {
  return `${CHUNK_RELOAD_KEY_PREFIX}${screen}`;
}

/**
 * After `screen`'s script failed to load: reload (and mark the screen) the first time, fail the second time.
 * Without usable storage the reload could not be counted, so it fails straight away rather than risk a loop.
 */
export function decideAfterChunkLoadFailure(
  storage: MarkStorage | null,
  screen: string,
  cause?: unknown,
): ChunkLoadDecision {
  try {
    if (storage && storage.getItem(markKey(screen)) === null) {
      storage.setItem(markKey(screen), new Date().toISOString());
      return { action: "reload" };
    }
  } catch {
    // Storage refused (quota, privacy settings): fall through to failing.
  }
  return { action: "fail", error: chunkLoadError(screen, cause) };
}

/** `screen`'s script loaded: a later failure may reload again. */
export function recordChunkLoadSuccess(storage: MarkStorage | null, screen: string): void {
  try {
    storage?.removeItem(markKey(screen));
  } catch {
    // Nothing to forget without storage.
  }
}

export type RouteModuleGuardOptions<Module> = {
  /** The route module's URL from Remix's manifest; undefined for an unknown route id. */
  moduleUrl(routeId: string): string | undefined;
  importModule(url: string): Promise<Module>;
  storage: MarkStorage | null;
  reload(): void;
  /** The module to hand Remix when the screen cannot load: one whose screen throws `error` when rendered. */
  failedModule(error: Error): Module;
};

/**
 * A route module whose screen throws `error`, so the nearest error boundary shows the error page. Remix 2.17
 * with single fetch drops a rejected route module on the floor (the navigation completes with an empty
 * screen), so the failure travels as a screen that fails to render instead.
 */
export function moduleThatThrows(error: Error): { default: () => never } {
  return {
    default: function ScreenLoadFailure() {
      throw error;
    },
  };
}

/**
 * Wraps Remix's route-module cache (`window.__remixRouteModules`) so every route module Remix loads after
 * hydration follows the rule above. Remix 2.17's `loadRouteModule(route, cache)` starts with
 * `if (route.id in cache) return cache[route.id];` and otherwise imports the module itself, reloading the page
 * on every failure (a reload loop when a script stays unavailable). The proxy answers that `in` for a known,
 * not yet loaded route with true and the `cache[route.id]` read that immediately follows with a promise of
 * the guarded import, so Remix awaits our load instead of doing its own. Every other read of the cache sees
 * the plain object. Only that synchronous `in`-then-read pair is intercepted: the "armed" route id is
 * forgotten at the next microtask. On a second failure the route gets `failedModule(chunkLoadError)` for the
 * rest of the page's life; the error page's "Take me home" loads a fresh page.
 */
export function guardRouteModules<Module>(
  cache: Record<string, Module>,
  options: RouteModuleGuardOptions<Module>,
): Record<string, Module> {
  const inFlight = new Map<string, Promise<Module>>();
  let armed: string | null = null;

  function load(routeId: string, url: string): Promise<Module> {
    const pending = inFlight.get(routeId);
    if (pending) return pending;
    const loading = options.importModule(url).then(
      (module) => {
        inFlight.delete(routeId);
        cache[routeId] = module;
        recordChunkLoadSuccess(options.storage, routeId);
        return module;
      },
      (error: unknown) => {
        inFlight.delete(routeId);
        const decision = decideAfterChunkLoadFailure(options.storage, routeId, error);
        if (decision.action === "fail") {
          const failed = options.failedModule(decision.error);
          cache[routeId] = failed;
          return failed;
        }
        console.error(`Could not load the script of screen "${routeId}"; reloading the page once.`, error);
        options.reload();
        // The page is going away; nothing should render in the meantime.
        return new Promise<Module>(() => {});
      },
    );
    inFlight.set(routeId, loading);
    return loading;
  }

  return new Proxy(cache, {
    has(target, key) {
      if (Reflect.has(target, key)) return true;
      if (typeof key !== "string" || !options.moduleUrl(key)) return false;
      armed = key;
      queueMicrotask(() => {
        if (armed === key) armed = null;
      });
      return true;
    },
    get(target, key, receiver) {
      if (typeof key === "string" && armed === key) {
        armed = null;
        const url = options.moduleUrl(key);
        if (!Reflect.has(target, key) && url) return load(key, url);
      }
      return Reflect.get(target, key, receiver);
    },
  });
}

/** Screens whose scripts came with the page loaded fine: forget their reloads. */
export function recordLoadedScreens(storage: MarkStorage | null, routeIds: Iterable<string>): void {
  for (const routeId of routeIds) recordChunkLoadSuccess(storage, routeId);
}
