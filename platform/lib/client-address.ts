/**
 * The address of the client a request came from, for the limits keyed on it (decision 045).
 *
 * Without trusted proxies it is the socket's peer: X-Forwarded-For is anyone's to write. Behind `trustedHops`
 * reverse proxies (TRUST_PROXY), each proxy appends the address it was reached from, so the chain is
 * `[...X-Forwarded-For, peer]` and the client is the entry `trustedHops` from its right end: entries further left
 * came with the request and may be forged. With fewer entries than proxies (a proxy that sends none), the leftmost
 * one known is the best there is.
 */
export function clientAddressOf(
  peer: string | undefined,
  forwardedFor: string | string[] | undefined,
  trustedHops: number,
): string {
  const socket = peer ?? "unknown";
  if (trustedHops <= 0) return socket;
  const forwarded = [forwardedFor ?? []]
    .flat()
    .flatMap((value) => value.split(","))
    .map((entry) => entry.trim())
    .filter((entry) => entry !== "");
  const chain = [...forwarded, socket];
  return chain[Math.max(0, chain.length - 1 - trustedHops)] ?? socket;
}
