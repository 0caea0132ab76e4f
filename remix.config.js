// The Remix options, passed to Remix's Vite plugin by vite.config.ts (decision 064).
/** @type {Partial<import('@remix-run/dev').VitePluginConfig> & { serverDependenciesToBundle: RegExp[] }} */
export default {
  ignoredRouteFiles: ["**/.*", "**/*.test.{ts,tsx}"],
  serverModuleFormat: "esm",
  // Bundled into the server build rather than imported from node_modules at run time (ESM-only or untranspiled).
  serverDependenciesToBundle: [/^remix-auth/, /^@mjackson\//, /^arctic/],
  future: {
    v3_fetcherPersist: true,
    v3_relativeSplatPath: true,
    v3_throwAbortReason: true,
    v3_lazyRouteDiscovery: true,
    v3_singleFetch: true,
  },
};
