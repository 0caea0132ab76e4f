import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import { createCookie, type Cookie, type CookieOptions } from "@remix-run/node";

const IV_BYTES = 12;
const TAG_BYTES = 16;

/** One AES-256-GCM key per secret, derived so a secret is never used directly as a key. */
function keyFor(secret: string): Buffer {
  return Buffer.from(hkdfSync("sha256", secret, "", "cloud-console session cookie v1", 32));
}

export function encrypt(plaintext: string, key: Buffer): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  const sealed = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString("base64url");
}

/** The plaintext, or null when no key opens it (another secret, tampered, truncated). */
export function decrypt(token: string, keys: Buffer[]): string | null {
  const bytes = Buffer.from(token, "base64url");
  if (bytes.length <= IV_BYTES + TAG_BYTES) return null;
  for (const key of keys) {
    try {
      const decipher = createDecipheriv("aes-256-gcm", key, bytes.subarray(0, IV_BYTES));
      decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      return Buffer.concat([
        decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)),
        decipher.final(),
      ]).toString("utf8");
    } catch {
      // Not this key: try the next one.
    }
  }
  return null;
}

/**
 * A cookie whose value is encrypted and authenticated (AES-256-GCM), not only signed: whoever holds a copy cannot
 * read the tokens in it. `secrets` rotate as with a signed cookie: the first encrypts, every one decrypts.
 */
export function createEncryptedCookie(
  name: string,
  { secrets, ...options }: CookieOptions & { secrets: string[] },
): Cookie {
  const keys = secrets.map(keyFor);
  // The value is already sealed; the inner cookie only carries it.
  const carrier = createCookie(name, options);
  return {
    name,
    isSigned: true,
    get expires() {
      return carrier.expires;
    },
    async parse(cookieHeader, parseOptions) {
      const sealed: unknown = await carrier.parse(cookieHeader, parseOptions);
      if (typeof sealed !== "string") return null;
      const plaintext = decrypt(sealed, keys);
      return plaintext === null ? null : (JSON.parse(plaintext) as unknown);
    },
    serialize(value, serializeOptions) {
      const [key] = keys;
      if (!key) throw new Error("A session secret is required");
      return carrier.serialize(value === "" ? "" : encrypt(JSON.stringify(value), key), serializeOptions);
    },
  };
}
