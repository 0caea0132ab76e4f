import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

/**
 * GitHub's webhook signature (https://docs.github.com/webhooks/using-webhooks/validating-webhook-deliveries):
 * `X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the raw body, keyed with the hook's secret>`.
 */
export const SIGNATURE_HEADER = "X-Hub-Signature-256";

export function signatureOf(secret: string, body: Uint8Array | string): string {
  return `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`;
}

/** Compared in constant time, so the answer's timing tells nothing of how much of a forged signature was right. */
export function signatureMatches(secret: string, body: Uint8Array, header: string): boolean {
  const expected = Buffer.from(signatureOf(secret, body));
  const given = Buffer.from(header);
  // The length of a valid signature is public (71 characters); only equal lengths are compared.
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** Checked against for a hook that does not exist, so it costs the same time as one that does. */
const decoySecret = randomBytes(32).toString("hex");
export function decoySignatureCheck(body: Uint8Array, header: string): false {
  signatureMatches(decoySecret, body, header);
  return false;
}

/** A new hook secret: 32 random bytes, hex (GitHub takes any string). */
export function newHookSecret(): string {
  return randomBytes(32).toString("hex");
}

/** A delivery's header value (its id, its event) as it may appear in a log line: GitHub's delivery ids are UUIDs. */
export const loggable = (value: string | undefined) =>
  (value ?? "").replace(/[^\w-]/g, "").slice(0, 64) || "none";
