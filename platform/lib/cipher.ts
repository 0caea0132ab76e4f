import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import { existsSync, linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import * as z from "zod";
import type { PlatformConfig } from "./config";

/**
 * Encrypts secrets at rest with AES-256-GCM. A sealed value reads `v1.<key id>.<iv>.<tag>.<ciphertext>` (base64url
 * parts): the key id picks the decryption key, so keys can rotate, and the context (additional authenticated data)
 * binds a value to where it is stored, so a ciphertext copied to another row does not decrypt.
 */
export type SecretCipher = {
  encrypt: (plaintext: string, context: string) => string;
  decrypt: (sealed: string, context: string) => string;
};

/** The stored value cannot be decrypted with the configured keys (lost key, tampered row, wrong context). */
export class SecretDecryptionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SecretDecryptionError";
  }
}

const VERSION = "v1";
const IV_BYTES = 12;
const KEY_BYTES = 32;

function keyIdOf(key: Buffer): string {
  return createHash("sha256").update(key).digest("hex").slice(0, 8);
}

/** `keys[0]` encrypts; any of them decrypts. */
export function createSecretCipher(keys: Buffer[]): SecretCipher {
  const [current] = keys;
  if (!current) throw new Error("at least one encryption key is required");
  for (const key of keys) {
    if (key.length !== KEY_BYTES) throw new Error(`encryption keys must be ${KEY_BYTES} bytes`);
  }
  const byId = new Map(keys.map((key) => [keyIdOf(key), key]));
  const currentId = keyIdOf(current);

  return {
    encrypt(plaintext, context) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv("aes-256-gcm", current, iv);
      cipher.setAAD(Buffer.from(context, "utf8"));
      const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
      const tag = cipher.getAuthTag();
      return [VERSION, currentId, iv, tag, ciphertext]
        .map((part) => (typeof part === "string" ? part : part.toString("base64url")))
        .join(".");
    },
    decrypt(sealed, context) {
      const [version, keyId, iv, tag, ciphertext, ...rest] = sealed.split(".");
      if (version !== VERSION || !keyId || !iv || !tag || ciphertext === undefined || rest.length) {
        throw new SecretDecryptionError("The stored secret is not in a known format");
      }
      const key = byId.get(keyId);
      if (!key) throw new SecretDecryptionError("The secret was encrypted with a key that is not configured");
      try {
        const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"));
        decipher.setAAD(Buffer.from(context, "utf8"));
        decipher.setAuthTag(Buffer.from(tag, "base64url"));
        return Buffer.concat([
          decipher.update(Buffer.from(ciphertext, "base64url")),
          decipher.final(),
        ]).toString("utf8");
      } catch {
        throw new SecretDecryptionError("The stored secret failed its integrity check");
      }
    },
  };
}

/** A cipher with a fresh random key, for in-memory platforms (tests): nothing it seals outlives the process. */
export function ephemeralSecretCipher(): SecretCipher {
  return createSecretCipher([randomBytes(KEY_BYTES)]);
}

export const ENCRYPTION_KEYS_FILE = "encryption-keys.json";

const keyFileSchema = z.object({
  keys: z.array(z.string().refine((key) => Buffer.from(key, "base64").length === KEY_BYTES)).min(1),
});

/**
 * PLATFORM_ENCRYPTION_KEY when set; otherwise the key kept in DATA_DIR (generated on first start, mode 0600). A
 * damaged key file stops start-up: a new key would leave every stored secret unreadable.
 */
export function secretCipherFor(config: Pick<PlatformConfig, "dataDir" | "encryptionKeys">): SecretCipher {
  if (config.encryptionKeys?.length) {
    return createSecretCipher(config.encryptionKeys.map((key) => Buffer.from(key, "base64")));
  }
  if (config.dataDir === "memory") return ephemeralSecretCipher();
  const file = path.join(config.dataDir, ENCRYPTION_KEYS_FILE);
  if (!existsSync(file)) {
    mkdirSync(config.dataDir, { recursive: true });
    const temporary = `${file}.${process.pid}.tmp`;
    const content = { keys: [randomBytes(KEY_BYTES).toString("base64")] };
    writeFileSync(temporary, `${JSON.stringify(content, null, 2)}\n`, { mode: 0o600 });
    // A hard link appears complete or not at all, and fails if another process created the file first: then
    // both use that one.
    try {
      linkSync(temporary, file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    } finally {
      unlinkSync(temporary);
    }
  }
  let parsed: z.infer<typeof keyFileSchema>;
  try {
    parsed = keyFileSchema.parse(JSON.parse(readFileSync(file, "utf8")));
  } catch {
    throw new Error(
      `${file} is damaged: restore it, or set PLATFORM_ENCRYPTION_KEY to the key it held (stored secrets need it)`,
    );
  }
  return createSecretCipher(parsed.keys.map((key) => Buffer.from(key, "base64")));
}
