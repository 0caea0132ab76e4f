import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { containerProxyForStart, containerProxyPlan } from "./container-proxy.mjs";

describe("the reverse proxy `npm start` runs for this machine's applications (issue 26)", () => {
  it("starts Caddy only when it chose the engine itself, outside production, and Caddy is installed", () => {
    const found = { engineDiscovered: true, caddyInstalled: true };
    expect(containerProxyPlan({}, found)).toEqual({ kind: "start-caddy" });
    expect(containerProxyPlan({}, { ...found, caddyInstalled: false })).toEqual({ kind: "not-installed" });
    expect(containerProxyPlan({}, { ...found, engineDiscovered: false })).toEqual({ kind: "none" });
    expect(containerProxyPlan({ NODE_ENV: "production" }, found)).toEqual({ kind: "none" });
    expect(containerProxyPlan({ CONTAINER_PROXY_ADMIN_URL: "http://127.0.0.1:2019" }, found)).toEqual({
      kind: "operator",
    });
  });

  const dataDir = mkdtempSync(path.join(tmpdir(), "start-proxy-"));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it("runs Caddy with its admin port kept in DATA_DIR, answering its admin API", async () => {
    if (!existsSync("/usr/bin/caddy"))
      throw new Error("This test needs Caddy: apt-get install -y caddy (as root).");
    const adminUrl = await containerProxyForStart({}, dataDir, { engineDiscovered: true });
    expect(adminUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect((await fetch(`${adminUrl}/config/`)).ok).toBe(true);
    const kept = JSON.parse(readFileSync(path.join(dataDir, "caddy", "caddy.json"), "utf8"));
    expect(`http://${kept.admin.listen}`).toBe(adminUrl);
    // Stopped like npm start stops it (the test process's exit would too).
    await fetch(`${adminUrl}/stop`, { method: "POST" });
  }, 30_000);
});
