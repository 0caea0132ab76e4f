/**
 * A database or cache is never deleted without a final snapshot (issue 24): when its service is deleted, and when
 * a change replaces it. The snapshot carries the service's tags (so it can be found after the service is gone)
 * and a name that says whose it is and when it was taken.
 */

/** `<identifier>-final-<yyyymmddhhmmss>` (UTC): letters, digits and single hyphens, as RDS and ElastiCache take. */
export function finalSnapshotName(identifier: string, now: Date): string {
  const stamp = now
    .toISOString()
    .replace(/\.\d+Z$/, "")
    .replace(/\D/g, "");
  return `${identifier}-final-${stamp}`;
}
