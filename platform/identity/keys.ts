import { generateKeyPair, randomBytes } from "node:crypto";
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { calculateJwkThumbprint, type JWK } from "jose";

/** Key material the identity provider keeps across restarts: tokens and cookies must outlive the process. */
export type IdentityKeys = {
  /** Private RS256 signing keys, newest first (oidc-provider signs with the first). */
  signingKeys: JWK[];
  /** The public halves, as served at /.well-known/jwks.json and used by the API to verify access tokens. */
  publicJwks: { keys: JWK[] };
  /** Secrets that sign the provider's cookies, newest first. */
  cookieKeys: string[];
};

const SIGNING_KEYS_FILE = "jwks.json";
const COOKIE_KEYS_FILE = "cookie-keys.json";

/** The identity provider's folder inside the data directory. */
export function identityKeysDirectory(dataDir: string): string {
  return path.join(dataDir, "identity");
}

/**
 * Loads the signing and cookie keys from `<dataDir>/identity/`, creating them on first start.
 * A damaged key file is an error rather than a reason to generate new keys, because new keys would silently
 * invalidate every session and token that is still in use.
 */
export async function loadOrCreateIdentityKeys(dataDir: string): Promise<IdentityKeys> {
  const directory = identityKeysDirectory(dataDir);
  await mkdir(directory, { recursive: true, mode: 0o700 });

  const signingKeys = await loadOrCreate(
    path.join(directory, SIGNING_KEYS_FILE),
    parseSigningKeys,
    async () => ({
      keys: [await generateSigningKey()],
    }),
  );
  const cookieKeys = await loadOrCreate(
    path.join(directory, COOKIE_KEYS_FILE),
    parseCookieKeys,
    async () => ({
      keys: [randomBytes(32).toString("base64url")],
    }),
  );

  return { signingKeys, publicJwks: { keys: signingKeys.map(publicSigningKey) }, cookieKeys };
}

async function loadOrCreate<T>(
  file: string,
  parse: (content: unknown, file: string) => T,
  create: () => Promise<unknown>,
): Promise<T> {
  let text: string | undefined;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  if (text !== undefined) return parse(parseJson(text, file), file);

  const created = await create();
  // Written beside the target and renamed, so a crash never leaves a half-written key file behind.
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, `${JSON.stringify(created, null, 2)}\n`, { mode: 0o600 });
  await rename(temporary, file);
  return parse(created, file);
}

function parseJson(text: string, file: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new Error(
      `${file} is not valid JSON; restore it or delete it to issue new keys (signs everyone out)`,
    );
  }
}

function keysOf(content: unknown, file: string): unknown[] {
  const keys = (content as { keys?: unknown } | null)?.keys;
  if (!Array.isArray(keys) || keys.length === 0)
    throw new Error(`${file} must hold a non-empty "keys" array`);
  return keys;
}

function parseSigningKeys(content: unknown, file: string): JWK[] {
  return keysOf(content, file).map((key) => {
    const jwk = key as JWK;
    if (jwk.kty !== "RSA" || !jwk.n || !jwk.e || !jwk.d || !jwk.kid) {
      throw new Error(`${file} must hold private RSA keys with a kid`);
    }
    return jwk;
  });
}

function parseCookieKeys(content: unknown, file: string): string[] {
  return keysOf(content, file).map((key) => {
    if (typeof key !== "string" || key.length < 32)
      throw new Error(`${file} must hold secrets of 32+ characters`);
    return key;
  });
}

async function generateSigningKey(): Promise<JWK> {
  const { privateKey } = await promisify(generateKeyPair)("rsa", { modulusLength: 2048 });
  const jwk = privateKey.export({ format: "jwk" }) as JWK;
  const kid = await calculateJwkThumbprint({ kty: "RSA", n: jwk.n, e: jwk.e });
  return { ...jwk, kid, alg: "RS256", use: "sig" };
}

function publicSigningKey({ kty, n, e, kid, alg, use }: JWK): JWK {
  return { kty, n, e, kid, alg, use };
}
