import type * as z from "zod";

/** One platform answer the app holds with its ETag, and its last parse (a poll re-parses nothing). */
export type HeldAnswer = { etag: string; body: unknown; parsed?: { schema: z.ZodType; value: unknown } };

/** What one caller's platform client holds, by URL: the answers it may be told are unchanged (304). */
export type HeldAnswers = {
  get(url: string): HeldAnswer | undefined;
  set(url: string, answer: HeldAnswer): void;
};

/**
 * Enough for every signed-in user of a busy console to poll a page or two; the least recently used answer goes
 * first. An answer is a few kilobytes (a page of 50 services is about 24 KB).
 */
export const MAX_HELD_ANSWERS = 1000;

const held = new Map<string, HeldAnswer>();

/**
 * The answers held for one user (decision 065). Per user, not shared: the platform decides what each caller may
 * see, and it still checks the caller at every request before it answers 304. Held in this process's memory only.
 */
export function heldAnswersOf(userId: string): HeldAnswers {
  const keyOf = (url: string) => `${userId}\n${url}`;
  return {
    get(url) {
      const key = keyOf(url);
      const answer = held.get(key);
      if (answer) {
        // Most recently used last: Map keeps insertion order.
        held.delete(key);
        held.set(key, answer);
      }
      return answer;
    },
    set(url, answer) {
      const key = keyOf(url);
      held.delete(key);
      held.set(key, answer);
      for (const oldest of held.keys()) {
        if (held.size <= MAX_HELD_ANSWERS) break;
        held.delete(oldest);
      }
    },
  };
}
