// `npm run dev`: the embedded platform restarted on change (tsx watch) and the app under Remix's Vite dev server
// (`remix vite:dev`: hot module replacement, live reload) on the app's port.
import { embeddedEnvironments } from "./lib/embedded.mjs";
import { supervise, waitForHttp } from "./lib/processes.mjs";

const environments = embeddedEnvironments();
const processes = supervise();
processes.start("platform", "npx", ["tsx", "watch", "platform/main.ts"], {
  ...environments.platform,
  NODE_ENV: "development",
});
await waitForHttp(`${environments.platformUrl}/api/healthz`);
processes.start("app", "npx", ["remix", "vite:dev", "--port", environments.app.PORT, "--strictPort"], {
  ...environments.app,
  NODE_ENV: "development",
});
