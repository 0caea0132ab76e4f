import { and, eq, sql, type SQL } from "drizzle-orm";
import type { Database } from "../db/index";
import { loginAttempts } from "../db/schema";
import { authenticateUser } from "./account";

/** How many failed attempts a key may make: growing delays from `delayAfter`, a lockout at `lockAfter`. */
export type AttemptLimit = {
  /** From this many failures on, the next attempt waits 1 s, then 2 s, 4 s ... up to `maxDelaySeconds`. */
  delayAfter?: number;
  maxDelaySeconds: number;
  /** This many failures lock the key for `lockSeconds`. */
  lockAfter: number;
  lockSeconds: number;
  /** Failures older than this (counted from the latest attempt) are forgotten. */
  windowSeconds: number;
};

/** Per account (the typed e-mail, whether an account has it or not), as Auth0's brute-force protection. */
export const ACCOUNT_LIMIT: AttemptLimit = {
  delayAfter: 5,
  maxDelaySeconds: 60,
  lockAfter: 10,
  lockSeconds: 15 * 60,
  windowSeconds: 15 * 60,
};

/** Per client address: looser, against one address guessing across many e-mails. */
export const ADDRESS_LIMIT: AttemptLimit = {
  maxDelaySeconds: 0,
  lockAfter: 100,
  lockSeconds: 15 * 60,
  windowSeconds: 15 * 60,
};

type Kind = "account" | "address";

const LIMITS: Record<Kind, AttemptLimit> = { account: ACCOUNT_LIMIT, address: ADDRESS_LIMIT };

/** Seconds the key is blocked after `failures` failures, as SQL (null when it is not blocked). */
function blockSecondsSql(limit: AttemptLimit, failures: SQL): SQL {
  const delay =
    limit.delayAfter === undefined
      ? sql`null`
      : sql`case when ${failures} >= ${limit.delayAfter}
          then least(power(2, ${failures} - ${limit.delayAfter}), ${limit.maxDelaySeconds}) end`;
  return sql`case when ${failures} >= ${limit.lockAfter} then ${limit.lockSeconds} else ${delay} end`;
}

function plusSecondsSql(at: string, seconds: SQL): SQL {
  return sql`${at}::timestamptz + make_interval(secs => (${seconds})::double precision)`;
}

type Count = { retryAt?: Date; lockedUntil?: Date };

/**
 * Counts one attempt for a key before its password is checked, in one statement so that parallel guesses each
 * see the others: while the key is locked nothing changes and the attempt is refused; an attempt during a delay
 * is refused and still counts (hammering leads to the lockout).
 */
async function countAttempt(db: Database, kind: Kind, key: string, now: Date): Promise<Count> {
  const limit = LIMITS[kind];
  const at = now.toISOString();
  const stale = sql`${loginAttempts.lastAttemptAt} <= ${plusSecondsSql(at, sql`${-limit.windowSeconds}`)}`;
  // Not locked is guaranteed by setWhere, so a count at the lock threshold means the lock has run out.
  const fresh = sql`(${stale} or ${loginAttempts.failures} >= ${limit.lockAfter})`;
  const failures = sql`(case when ${fresh} then 1 else ${loginAttempts.failures} + 1 end)`;
  const [row] = await db
    .insert(loginAttempts)
    .values({
      kind,
      key,
      failures: 1,
      lastAttemptAt: now,
      blockedUntil: sql`${plusSecondsSql(at, blockSecondsSql(limit, sql`1`))}`,
    })
    .onConflictDoUpdate({
      target: [loginAttempts.kind, loginAttempts.key],
      set: {
        failures,
        lastAttemptAt: now,
        blockedUntil: plusSecondsSql(at, blockSecondsSql(limit, failures)),
        refused: sql`(not ${fresh} and coalesce(${loginAttempts.blockedUntil} > ${at}::timestamptz, false))`,
      },
      setWhere: sql`not (${loginAttempts.failures} >= ${limit.lockAfter}
        and ${loginAttempts.blockedUntil} > ${at}::timestamptz)`,
    })
    .returning();
  if (!row) {
    const [locked] = await db
      .select({ blockedUntil: loginAttempts.blockedUntil })
      .from(loginAttempts)
      .where(and(eq(loginAttempts.kind, kind), eq(loginAttempts.key, key)));
    const until = locked?.blockedUntil ?? now;
    return { retryAt: until, lockedUntil: until };
  }
  const lockedUntil = row.failures >= limit.lockAfter ? (row.blockedUntil ?? undefined) : undefined;
  // A refused attempt may try again once the block its own count set has passed.
  return row.refused ? { retryAt: row.blockedUntil ?? now, lockedUntil } : { lockedUntil };
}

function later(a: Date | undefined, b: Date | undefined): Date | undefined {
  if (!a || !b) return a ?? b;
  return a > b ? a : b;
}

export type SignInResult =
  | { outcome: "signed-in"; accountId: string }
  | { outcome: "wrong-credentials" }
  /** Refused without checking the password, or the wrong password that reached the lockout. */
  | { outcome: "throttled"; retryAt: Date };

/**
 * Checks an e-mail address and password under the attempt limits of the account and of the client address.
 * Every attempt is counted before the password is checked; a success takes its count back and clears the
 * account's failures, so only failures ever throttle.
 */
export async function signInWithPassword(
  db: Database,
  { email, password, address }: { email: string; password: string; address: string },
  now: () => Date = () => new Date(),
): Promise<SignInResult> {
  const accountKey = email.trim().toLowerCase();
  const account = await countAttempt(db, "account", accountKey, now());
  const byAddress = await countAttempt(db, "address", address, now());
  const retryAt = later(account.retryAt, byAddress.retryAt);
  if (retryAt) return { outcome: "throttled", retryAt };

  const accountId = await authenticateUser(db, email, password);
  if (!accountId) {
    const lockedUntil = later(account.lockedUntil, byAddress.lockedUntil);
    return lockedUntil ? { outcome: "throttled", retryAt: lockedUntil } : { outcome: "wrong-credentials" };
  }
  await db
    .delete(loginAttempts)
    .where(and(eq(loginAttempts.kind, "account"), eq(loginAttempts.key, accountKey)));
  await db
    .update(loginAttempts)
    .set({ failures: sql`greatest(${loginAttempts.failures} - 1, 0)` })
    .where(and(eq(loginAttempts.kind, "address"), eq(loginAttempts.key, address)));
  return { outcome: "signed-in", accountId };
}

/** Whole seconds until `retryAt`, at least 1: the Retry-After header and the page say the same. */
export function secondsUntil(retryAt: Date, now: Date): number {
  return Math.max(1, Math.ceil((retryAt.getTime() - now.getTime()) / 1000));
}
