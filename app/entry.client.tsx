import { RemixBrowser } from "@remix-run/react";
import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { guardRouteModules, moduleThatThrows, recordLoadedScreens, type MarkStorage } from "~/chunk-load";

function sessionStorageOrNull(): MarkStorage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}

// SPEC §2.1 screen load failure: the route modules Remix loads from now on reload the page once, then fail
// with chunkLoadError (see chunk-load.ts). The page's own route modules came with it and loaded fine.
const storage = sessionStorageOrNull();
recordLoadedScreens(storage, Object.keys(window.__remixRouteModules));
window.__remixRouteModules = guardRouteModules(window.__remixRouteModules, {
  moduleUrl: (routeId) => window.__remixManifest.routes[routeId]?.module,
  importModule: (url) => import(/* webpackIgnore: true */ url),
  storage,
  reload: () => window.location.reload(),
  failedModule: moduleThatThrows,
});

startTransition(() => {
  hydrateRoot(
    document,
    <StrictMode>
      <RemixBrowser />
    </StrictMode>,
  );
});
