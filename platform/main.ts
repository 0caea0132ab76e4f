import { loadPlatformConfig } from "./config";
import { startPlatform } from "./server";

const config = loadPlatformConfig();
const platform = await startPlatform(config);
console.info(
  `platform: listening on ${config.publicUrl} (API ${config.publicUrl}/api, issuer ${config.issuer})`,
);

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    platform.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
}
