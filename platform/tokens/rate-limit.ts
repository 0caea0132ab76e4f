import { API_TOKEN_REQUESTS_PER_MINUTE } from "#contract/api-tokens";

const WINDOW_MS = 60_000;

/**
 * Counts each token's requests in fixed one-minute windows, in this process's memory: a limit against a runaway
 * script, not an accounting (several platform processes each allow the limit). `now` is the engine's clock, so a
 * test moves time instead of waiting it out.
 */
export function createTokenRateLimiter({
  now,
  limit = API_TOKEN_REQUESTS_PER_MINUTE,
}: {
  now: () => Date;
  limit?: number;
}): (tokenId: string) => { allowed: true } | { allowed: false; retryAfterSeconds: number } {
  const windows = new Map<string, { start: number; count: number }>();
  return (tokenId) => {
    const at = now().getTime();
    if (windows.size > 10_000) {
      for (const [id, window] of windows) if (at - window.start >= WINDOW_MS) windows.delete(id);
    }
    const window = windows.get(tokenId);
    if (!window || at - window.start >= WINDOW_MS) {
      windows.set(tokenId, { start: at, count: 1 });
      return { allowed: true };
    }
    if (window.count >= limit) {
      return {
        allowed: false,
        retryAfterSeconds: Math.max(1, Math.ceil((window.start + WINDOW_MS - at) / 1000)),
      };
    }
    window.count += 1;
    return { allowed: true };
  };
}
