// The configuration tab's action checks with every type's rules (contract/service-configs.ts). Imported through this
// server module, the details page's browser bundle does without them until the tab itself loads them (lazy-panels).
export { configFormSchema } from "./config-form";
