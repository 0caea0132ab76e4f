import { randomBytes } from "node:crypto";
import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadPlatformConfig } from "./config";
import { createSecretCipher, ENCRYPTION_KEYS_FILE, SecretDecryptionError, secretCipherFor } from "./cipher";

let dataDir: string;
beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), "cipher-test-"));
});
afterAll(() => rm(dataDir, { recursive: true, force: true }));

describe("the secret cipher", () => {
  const key = randomBytes(32);

  it("seals with AES-256-GCM under a random IV and opens only in the same context", () => {
    const cipher = createSecretCipher([key]);
    const sealed = cipher.encrypt("p@ssw0rd", "row-1");
    expect(sealed).toMatch(/^v1\.[0-9a-f]{8}\.[\w-]{16}\.[\w-]{22}\.[\w-]+$/);
    expect(sealed).not.toContain("p@ssw0rd");
    expect(cipher.encrypt("p@ssw0rd", "row-1")).not.toBe(sealed);
    expect(cipher.decrypt(sealed, "row-1")).toBe("p@ssw0rd");
    expect(() => cipher.decrypt(sealed, "row-2")).toThrow(SecretDecryptionError);
  });

  it("refuses a tampered ciphertext, an unknown key and an unknown format", () => {
    const cipher = createSecretCipher([key]);
    const sealed = cipher.encrypt("value", "ctx");
    const parts = sealed.split(".");
    const ciphertext = Buffer.from(parts[4] ?? "", "base64url");
    ciphertext[0] = (ciphertext[0] ?? 0) ^ 1;
    const tampered = [...parts.slice(0, 4), ciphertext.toString("base64url")].join(".");
    expect(() => cipher.decrypt(tampered, "ctx")).toThrow("integrity");
    expect(() => createSecretCipher([randomBytes(32)]).decrypt(sealed, "ctx")).toThrow("not configured");
    expect(() => cipher.decrypt("plaintext", "ctx")).toThrow("format");
  });

  it("decrypts with any configured key and encrypts with the first (rotation)", () => {
    const old = createSecretCipher([key]);
    const sealedWithOld = old.encrypt("value", "ctx");
    const rotated = createSecretCipher([randomBytes(32), key]);
    expect(rotated.decrypt(sealedWithOld, "ctx")).toBe("value");
    expect(() => old.decrypt(rotated.encrypt("value", "ctx"), "ctx")).toThrow(SecretDecryptionError);
  });
});

describe("the encryption key", () => {
  it("is generated once into the data dir with mode 0600 and reused", async () => {
    const first = secretCipherFor({ dataDir });
    const file = path.join(dataDir, ENCRYPTION_KEYS_FILE);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const content = await readFile(file, "utf8");
    const sealed = first.encrypt("kept", "ctx");
    expect(secretCipherFor({ dataDir }).decrypt(sealed, "ctx")).toBe("kept");
    expect(await readFile(file, "utf8")).toBe(content);
  });

  it("comes from PLATFORM_ENCRYPTION_KEY when set, and the data dir is then not used", async () => {
    const configured = randomBytes(32).toString("base64");
    const elsewhere = await mkdtemp(path.join(tmpdir(), "cipher-configured-"));
    try {
      const cipher = secretCipherFor({ dataDir: elsewhere, encryptionKeys: [configured] });
      const sealed = cipher.encrypt("x", "ctx");
      expect(createSecretCipher([Buffer.from(configured, "base64")]).decrypt(sealed, "ctx")).toBe("x");
      await expect(stat(path.join(elsewhere, ENCRYPTION_KEYS_FILE))).rejects.toThrow();
    } finally {
      await rm(elsewhere, { recursive: true, force: true });
    }
  });

  it("stops start-up on a damaged key file instead of issuing a new key", async () => {
    const damaged = await mkdtemp(path.join(tmpdir(), "cipher-damaged-"));
    try {
      await writeFile(path.join(damaged, ENCRYPTION_KEYS_FILE), "{ not json");
      expect(() => secretCipherFor({ dataDir: damaged })).toThrow(/is damaged/);
    } finally {
      await rm(damaged, { recursive: true, force: true });
    }
  });

  it("is validated by the configuration: each comma-separated key must be 32 bytes of base64", () => {
    const base = { AUTH0_CLIENT_SECRET: "x".repeat(32) };
    const one = randomBytes(32).toString("base64");
    const two = randomBytes(32).toString("base64");
    expect(loadPlatformConfig({ ...base, PLATFORM_ENCRYPTION_KEY: `${one}, ${two}` }).encryptionKeys).toEqual(
      [one, two],
    );
    expect(loadPlatformConfig(base).encryptionKeys).toBeUndefined();
    expect(() => loadPlatformConfig({ ...base, PLATFORM_ENCRYPTION_KEY: "too-short" })).toThrow(
      /PLATFORM_ENCRYPTION_KEY: each key must be the base64 of 32 bytes/,
    );
  });

  it("engine settings default to seconds per step and can be scaled", () => {
    const base = { AUTH0_CLIENT_SECRET: "x".repeat(32) };
    expect(loadPlatformConfig(base).engine).toEqual({
      timeScale: 1,
      pollIntervalMs: 500,
      failureInjection: false,
    });
    expect(
      loadPlatformConfig({
        ...base,
        ENGINE_TIME_SCALE: "0.01",
        ENGINE_POLL_INTERVAL_MS: "20",
        ENGINE_FAILURE_INJECTION: "true",
      }).engine,
    ).toEqual({ timeScale: 0.01, pollIntervalMs: 20, failureInjection: true });
    expect(() => loadPlatformConfig({ ...base, ENGINE_TIME_SCALE: "-1" })).toThrow(/ENGINE_TIME_SCALE/);
  });
});
