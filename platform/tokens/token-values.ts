import { createHash, randomInt } from "node:crypto";
import { crc32 } from "node:zlib";
import { API_TOKEN_PREFIX, apiTokenPattern } from "#contract/api-tokens";

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const RANDOM_LENGTH = 30;
/** 62^6 > 2^32: six characters hold any CRC32. */
const CHECKSUM_LENGTH = 6;

function base62(value: number, length: number): string {
  let text = "";
  let rest = value;
  for (let index = 0; index < length; index += 1) {
    text = (ALPHABET[rest % 62] ?? "0") + text;
    rest = Math.floor(rest / 62);
  }
  return text;
}

function checksumOf(random: string): string {
  return base62(crc32(random), CHECKSUM_LENGTH);
}

/** A new token: `ccp_`, 30 random characters (about 178 bits) and their checksum. */
export function newTokenValue(): string {
  let random = "";
  for (let index = 0; index < RANDOM_LENGTH; index += 1) random += ALPHABET[randomInt(62)];
  return `${API_TOKEN_PREFIX}${random}${checksumOf(random)}`;
}

/** Whether a bearer value is shaped like one of our tokens (the prefix alone decides which check applies). */
export function looksLikeApiToken(value: string): boolean {
  return value.startsWith(API_TOKEN_PREFIX);
}

/** Whether the token's shape and checksum hold: a typo or a made-up value is refused before any query. */
export function isWellFormedToken(value: string): boolean {
  if (!apiTokenPattern.test(value)) return false;
  const body = value.slice(API_TOKEN_PREFIX.length);
  return checksumOf(body.slice(0, RANDOM_LENGTH)) === body.slice(RANDOM_LENGTH);
}

/**
 * What is stored: a SHA-256 of the token. A token carries ~178 random bits, so a fast hash suffices (a slow one
 * protects guessable passwords, and would cost every API call its time).
 */
export function tokenHashOf(value: string): string {
  return createHash("sha256").update(value).digest("hex");
}

/** What a list shows to recognise a token by: the prefix and its last four characters. */
export function tokenHintOf(value: string): string {
  return `${API_TOKEN_PREFIX}…${value.slice(-4)}`;
}
