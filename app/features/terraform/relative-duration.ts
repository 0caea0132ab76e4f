function plural(value: number, unit: string): string {
  return `${value} ${unit}${value === 1 ? "" : "s"}`;
}

/**
 * How long from `nowMs` until `expiresAtSeconds` (epoch seconds, SPEC §2.4 downloadURLExpirationTime), in the
 * largest unit that reads naturally: "24 hours", "45 minutes", "3 days".
 */
export function relativeDuration(expiresAtSeconds: number, nowMs: number): string {
  const seconds = Math.max(0, Math.round(expiresAtSeconds - nowMs / 1000));
  if (seconds < 60) return plural(seconds, "second");
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return plural(minutes, "minute");
  const hours = Math.round(seconds / 3600);
  if (hours < 48) return plural(hours, "hour");
  return plural(Math.round(seconds / 86_400), "day");
}
