/**
 * Deterministic randomness for the simulated cloud: every value the driver invents (names, log lines, metric noise)
 * comes from a small PRNG seeded by a hash of what it is about, so the same question always gets the same answer.
 */

/** A 32-bit FNV-1a hash of the parts, joined so that ("ab", "c") and ("a", "bc") differ. */
export function hashOf(...parts: (string | number)[]): number {
  let hash = 0x811c9dc5;
  for (const char of parts.join("\u0000")) {
    hash ^= char.codePointAt(0) ?? 0;
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** mulberry32: fast, small, good enough for simulated data (never for secrets). */
export type Random = {
  /** In [0, 1). */
  next(): number;
  /** An integer in [min, max]. */
  int(min: number, max: number): number;
  pick<T>(items: readonly T[]): T;
  /** `length` characters of `alphabet`. */
  chars(length: number, alphabet?: string): string;
  chance(probability: number): boolean;
};

export function randomFrom(...seedParts: (string | number)[]): Random {
  let state = hashOf(...seedParts);
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const random: Random = {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    pick: (items) => {
      const item = items[Math.floor(next() * items.length)];
      if (item === undefined) throw new Error("pick from an empty list");
      return item;
    },
    chars: (length, alphabet = lowerAlphanumeric) =>
      Array.from({ length }, () => alphabet[Math.floor(next() * alphabet.length)]).join(""),
    chance: (probability) => next() < probability,
  };
  return random;
}

export const lowerAlphanumeric = "abcdefghijklmnopqrstuvwxyz0123456789";
export const hexDigits = "0123456789abcdef";
export const digits = "0123456789";
/** The alphabet Kubernetes uses for generated name suffixes and pod-template hashes (no vowels, no look-alikes). */
export const kubernetesAlphabet = "bcdfghjklmnpqrstvwxz2456789";
