import js from "@eslint/js";
import tseslint from "typescript-eslint";
import reactHooks from "eslint-plugin-react-hooks";
import path from "node:path";

/**
 * The platform's layers, top to bottom (docs/decisions/040-platform-layers.md): a file imports only from its own
 * folder and the layers below its own. The domain modules share a layer: they may import each other, without loops
 * (scripts/check-platform-layers.mjs). Tests may reach anything; no source file reaches the test support.
 */
const platformLayers = [
  { name: "the composition root", folders: [".", "seed"] },
  { name: "the HTTP routers", folders: ["http"] },
  {
    name: "the domain modules",
    folders: [
      "operations",
      "applications",
      "audit",
      "charts",
      "connections",
      "cost",
      "deploy-on-push",
      "deployments",
      "environments",
      "feature-flags",
      "identity",
      "notifications",
      "observability",
      "onboarding",
      "plans",
      "previews",
      "services",
      "team",
      "terraform",
      "terraform-exports",
      "tokens",
    ],
  },
  { name: "the engine", folders: ["engine"] },
  { name: "the cloud seam and its drivers", folders: ["cloud"] },
  { name: "db and lib", folders: ["db", "lib"] },
];
const platformRoot = path.resolve(import.meta.dirname, "platform");
/** The platform folder a path is in ("." for platform/'s own files), or null outside platform/. */
function platformFolderOf(file) {
  const relative = path.relative(platformRoot, file);
  if (relative.startsWith("..") || path.isAbsolute(relative)) return null;
  const parts = relative.split(path.sep);
  return parts.length === 1 ? "." : parts[0];
}
/** The driver folder under platform/cloud/ a file is in (aws, simulated…), or null for the seam's own files. */
function cloudDriverOf(file) {
  const parts = path.relative(path.join(platformRoot, "cloud"), file).split(path.sep);
  return parts.length > 1 ? parts[0] : null;
}
const capitalized = (text) => text.charAt(0).toUpperCase() + text.slice(1);
const layerOf = (folder) => platformLayers.findIndex((layer) => layer.folders.includes(folder));

const platformLayersPlugin = {
  rules: {
    "no-upward-import": {
      meta: { type: "problem", schema: [] },
      create(context) {
        const from = platformFolderOf(context.filename);
        if (from === null) return {};
        const fromLayer = layerOf(from);
        function check(node) {
          const specifier = node.source?.value;
          if (typeof specifier !== "string" || !specifier.startsWith(".")) return;
          const target = path.resolve(path.dirname(context.filename), specifier);
          const to = platformFolderOf(target);
          if (to === "cloud" && from === "cloud") {
            const driver = cloudDriverOf(target);
            if (driver && driver !== cloudDriverOf(context.filename)) {
              context.report({
                node,
                message: `The cloud seam and each driver import no other driver (platform/cloud/${driver}/): what two drivers share belongs in the seam.`,
              });
            }
          }
          if (to === null || to === from) return;
          if (to === "testing") {
            context.report({ node, message: "Source never imports the test support (platform/testing/)." });
            return;
          }
          const toLayer = layerOf(to);
          if (fromLayer === -1 || toLayer === -1) {
            context.report({
              node,
              message: `platform/${fromLayer === -1 ? from : to}/ is in no layer: name it in eslint.config.js.`,
            });
          } else if (toLayer < fromLayer) {
            context.report({
              node,
              message: `${capitalized(platformLayers[fromLayer].name)} (platform/${from}/) may not import ${platformLayers[toLayer].name} (platform/${to}/), a layer above it.`,
            });
          }
        }
        return {
          ImportDeclaration: check,
          ExportNamedDeclaration: check,
          ExportAllDeclaration: check,
          ImportExpression: check,
        };
      },
    },
  },
};

export default tseslint.config(
  { ignores: ["node_modules", "build", "public/build", "data", "test-results", "playwright-report"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["**/*.{ts,tsx}"],
    plugins: { "react-hooks": reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": "error",
    },
  },
  {
    files: ["app/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            { group: ["../**/platform/**"], message: "app/ talks to platform/ only through contract/." },
          ],
        },
      ],
    },
  },
  {
    // A submission parsed on the server is answered with its reply, which must not echo a value beyond its
    // field's maximum: only the browser's validation (a form's onValidate) uses conform's own parse.
    files: ["app/**/*.{ts,tsx}"],
    ignores: ["app/**/*.test.{ts,tsx}", "app/components/parse-submission.server.ts"],
    rules: {
      "no-restricted-syntax": [
        "error",
        {
          selector:
            'CallExpression[callee.name="parseWithZod"]:not(Property[key.name="onValidate"] CallExpression)',
          message:
            "Parse a submission on the server with parseSubmission (~/components/parse-submission.server): its " +
            "reply never echoes a value beyond its field's maximum. conform's parseWithZod is for onValidate only.",
        },
      ],
    },
  },
  {
    files: ["platform/**", "contract/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            { group: ["~/*", "../**/app/**"], message: "platform/ and contract/ never import app/." },
          ],
        },
      ],
    },
  },
  {
    files: ["platform/**/*.ts"],
    ignores: ["platform/**/*.test.ts", "platform/testing/**"],
    plugins: { "platform-layers": platformLayersPlugin },
    rules: { "platform-layers/no-upward-import": "error" },
  },
  {
    files: ["**/*.mjs", "scripts/**"],
    languageOptions: {
      globals: {
        process: "readonly",
        console: "readonly",
        URL: "readonly",
        setTimeout: "readonly",
        clearTimeout: "readonly",
        setInterval: "readonly",
        clearInterval: "readonly",
        fetch: "readonly",
        AbortSignal: "readonly",
      },
    },
  },
);
