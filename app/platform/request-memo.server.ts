import type { AppLoadContext } from "@remix-run/node";

const memos = new WeakMap<AppLoadContext, Map<string, Promise<unknown>>>();

/**
 * `load()` once per request and key: the loaders of one page (the shell's, the environment's, the page's) run in
 * parallel and ask the platform for the same things. Remix hands them one `context` object per request (a new `{}`
 * each time, as remix-serve passes no getLoadContext), so it keys the memo and the memo goes with the request.
 * A failure is shared too: each caller handles it as its own.
 */
export function memoizeForRequest<T>(
  context: AppLoadContext | undefined,
  key: string,
  load: () => Promise<T>,
): Promise<T> {
  if (!context) return load();
  let memo = memos.get(context);
  if (!memo) memos.set(context, (memo = new Map()));
  let value = memo.get(key) as Promise<T> | undefined;
  if (!value) memo.set(key, (value = load()));
  return value;
}
