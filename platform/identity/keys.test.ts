import { mkdtemp, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { identityKeysDirectory, loadOrCreateIdentityKeys } from "./keys";

const directories: string[] = [];

async function freshDataDir(): Promise<string> {
  const directory = await mkdtemp(path.join(tmpdir(), "identity-keys-"));
  directories.push(directory);
  return directory;
}

afterEach(async () => {
  await Promise.all(
    directories.splice(0).map((directory) => rm(directory, { recursive: true, force: true })),
  );
});

describe("identity keys", () => {
  it("creates an RS256 key and cookie keys on first start and reuses them afterwards", async () => {
    const dataDir = await freshDataDir();
    const first = await loadOrCreateIdentityKeys(dataDir);
    const second = await loadOrCreateIdentityKeys(dataDir);

    expect(first.signingKeys).toHaveLength(1);
    expect(first.signingKeys[0]).toMatchObject({
      kty: "RSA",
      alg: "RS256",
      use: "sig",
      kid: expect.any(String),
    });
    expect(second).toEqual(first);
    expect(first.publicJwks.keys[0]?.kid).toBe(first.signingKeys[0]?.kid);
    expect(first.publicJwks.keys[0]).not.toHaveProperty("d");
    expect(first.cookieKeys[0]?.length).toBeGreaterThanOrEqual(32);
  });

  it("keeps the key files readable by their owner only", async () => {
    const dataDir = await freshDataDir();
    await loadOrCreateIdentityKeys(dataDir);
    for (const file of ["jwks.json", "cookie-keys.json"]) {
      const { mode } = await stat(path.join(identityKeysDirectory(dataDir), file));
      expect(mode & 0o777).toBe(0o600);
    }
  });

  it("refuses a damaged key file instead of replacing it with new keys", async () => {
    const dataDir = await freshDataDir();
    await loadOrCreateIdentityKeys(dataDir);
    await writeFile(path.join(identityKeysDirectory(dataDir), "jwks.json"), "{ not json");
    await expect(loadOrCreateIdentityKeys(dataDir)).rejects.toThrow(/jwks\.json is not valid JSON/);
    await writeFile(
      path.join(identityKeysDirectory(dataDir), "jwks.json"),
      JSON.stringify({ keys: [{ kty: "RSA" }] }),
    );
    await expect(loadOrCreateIdentityKeys(dataDir)).rejects.toThrow(/private RSA keys/);
  });
});
