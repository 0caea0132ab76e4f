import { and, eq, sql, type SQL } from "drizzle-orm";
import type { Database } from "../db/index";
import { loginAttempts } from "../db/schema";
import { authenticateUser, normalizeEmail } from "./account";

/** How many failed attempts a key may make: growing delays from `delayAfter`, a lockout at `lockAfter`. */
export type AttemptLimit = {
  /** The failure that makes the next attempt wait 1 s; each further failure doubles the wait. */
  delayAfter?: number;
  maxDelaySeconds: number;
  /** The failure that locks the key for `lockSeconds`. */
  lockAfter: number;
  lockSeconds: number;
  /** Failures are forgotten once the latest one is this old. */
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

function timestamp(at: Date): SQL {
  return sql`${at.toISOString()}::timestamptz`;
}

/** When a key with `failures` failures may try again, as SQL: null when it may at once. */
function blockedUntilSql(limit: AttemptLimit, failures: SQL, now: Date): SQL {
  const delay =
    limit.delayAfter === undefined
      ? sql`null`
      : sql`case when ${failures} >= ${limit.delayAfter}
          then least(power(2, ${failures} - ${limit.delayAfter}), ${limit.maxDelaySeconds}) end`;
  const seconds = sql`case when ${failures} >= ${limit.lockAfter} then ${limit.lockSeconds} else ${delay} end`;
  return sql`${timestamp(now)} + make_interval(secs => (${seconds})::double precision)`;
}

type Counted = { refusedUntil: Date } | { refusedUntil?: undefined; lockedUntil?: Date };

/**
 * Counts an attempt as a failure before its password is checked, in one statement, so parallel guesses each
 * see the ones before: a key that is blocked (a delay or a lockout) is refused and nothing is counted.
 */
async function countAttempt(db: Database, kind: Kind, key: string, now: Date): Promise<Counted> {
  const limit = LIMITS[kind];
  const windowStart = new Date(now.getTime() - limit.windowSeconds * 1000);
  const failures = sql`(case when ${loginAttempts.lastAttemptAt} <= ${timestamp(windowStart)} then 0
    else ${loginAttempts.failures} end + 1)`;
  const [row] = await db
    .insert(loginAttempts)
    .values({ kind, key, failures: 1, lastAttemptAt: now, blockedUntil: blockedUntilSql(limit, sql`1`, now) })
    .onConflictDoUpdate({
      target: [loginAttempts.kind, loginAttempts.key],
      set: { failures, lastAttemptAt: now, blockedUntil: blockedUntilSql(limit, failures, now) },
      setWhere: sql`coalesce(${loginAttempts.blockedUntil} <= ${timestamp(now)}, true)`,
    })
    .returning({ failures: loginAttempts.failures, blockedUntil: loginAttempts.blockedUntil });
  if (row) {
    return row.failures >= limit.lockAfter && row.blockedUntil ? { lockedUntil: row.blockedUntil } : {};
  }
  const [blocked] = await db
    .select({ blockedUntil: loginAttempts.blockedUntil })
    .from(loginAttempts)
    .where(and(eq(loginAttempts.kind, kind), eq(loginAttempts.key, key)));
  // A success may have cleared the row in between: the caller tries again in a second.
  return { refusedUntil: blocked?.blockedUntil ?? new Date(now.getTime() + 1000) };
}

/** Takes back an attempt counted for an address whose password was right (or never checked). */
async function uncountAddress(db: Database, address: string): Promise<void> {
  const failures = sql`greatest(${loginAttempts.failures} - 1, 0)`;
  await db
    .update(loginAttempts)
    .set({
      failures,
      blockedUntil: sql`case when ${failures} >= ${ADDRESS_LIMIT.lockAfter} then ${loginAttempts.blockedUntil} end`,
    })
    .where(and(eq(loginAttempts.kind, "address"), eq(loginAttempts.key, address)));
}

export type SignInResult =
  | { outcome: "signed-in"; accountId: string }
  | { outcome: "wrong-credentials" }
  /** Refused without checking the password, or the wrong password that started the lockout. */
  | { outcome: "throttled"; retryAt: Date };

/**
 * Checks an e-mail address and password under the attempt limits of the client address and of the account.
 * Each attempt is counted as a failure before the password is checked; a right password clears the account's
 * failures and takes the address's count back, so only failures ever throttle.
 */
export async function signInWithPassword(
  db: Database,
  { email, password, address }: { email: string; password: string; address: string },
  now: () => Date = () => new Date(),
): Promise<SignInResult> {
  const accountKey = normalizeEmail(email);
  const byAddress = await countAttempt(db, "address", address, now());
  if (byAddress.refusedUntil) return { outcome: "throttled", retryAt: byAddress.refusedUntil };
  const byAccount = await countAttempt(db, "account", accountKey, now());
  if (byAccount.refusedUntil) {
    await uncountAddress(db, address);
    return { outcome: "throttled", retryAt: byAccount.refusedUntil };
  }

  const accountId = await authenticateUser(db, email, password);
  if (!accountId) {
    const lockedUntil = [byAccount.lockedUntil, byAddress.lockedUntil]
      .filter((until): until is Date => until !== undefined)
      .sort((a, b) => b.getTime() - a.getTime())[0];
    return lockedUntil ? { outcome: "throttled", retryAt: lockedUntil } : { outcome: "wrong-credentials" };
  }
  await db
    .delete(loginAttempts)
    .where(and(eq(loginAttempts.kind, "account"), eq(loginAttempts.key, accountKey)));
  await uncountAddress(db, address);
  return { outcome: "signed-in", accountId };
}

/**
 * Counts a sign-up against its client address under the same limit and counter as failed sign-ins
 * (ADDRESS_LIMIT). None is taken back: each either creates an account or learns that an address has one, so one
 * client address makes at most 100 sign-ups and failed sign-ins together per 15 minutes.
 */
export async function limitSignUp(
  db: Database,
  address: string,
  now: () => Date = () => new Date(),
): Promise<{ outcome: "allowed" } | { outcome: "throttled"; retryAt: Date }> {
  const counted = await countAttempt(db, "address", address, now());
  return counted.refusedUntil
    ? { outcome: "throttled", retryAt: counted.refusedUntil }
    : { outcome: "allowed" };
}

/** Whole seconds until `retryAt`, at least 1: the Retry-After header and the page say the same. */
export function secondsUntil(retryAt: Date, now: Date): number {
  return Math.max(1, Math.ceil((retryAt.getTime() - now.getTime()) / 1000));
}
