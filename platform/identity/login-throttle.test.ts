import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { OpenDatabase } from "../db/index";
import { loginAttempts } from "../db/schema";
import { ensureRoles } from "../db/roles";
import { DEMO_PASSWORD, seedDemoData } from "../seed/demo-data";
import { ephemeralSecretCipher } from "../lib/cipher";
import { openTestDb } from "../testing/db";
import { secondsUntil, signInWithPassword, type SignInResult } from "./login-throttle";
import { signInLockedMessage } from "./pages";

const ADA = "ada@example.com";
/** A hundred password checks (scrypt) take seconds alone and far longer on a loaded machine. */
const SCRYPT_HEAVY_TIMEOUT_MS = 120_000;
const HOME = "203.0.113.7";

let database: OpenDatabase;
let clock: Date;

beforeAll(async () => {
  database = await openTestDb();
  await ensureRoles(database.db);
  await seedDemoData(database.db, { secrets: ephemeralSecretCipher() });
});

afterAll(async () => {
  await database?.close();
});

beforeEach(async () => {
  await database.db.delete(loginAttempts);
  clock = new Date("2026-11-23T10:00:00Z");
});

function advance(seconds: number): void {
  clock = new Date(clock.getTime() + seconds * 1000);
}

function attempt(email: string, password: string, address = HOME): Promise<SignInResult> {
  return signInWithPassword(database.db, { email, password, address }, () => clock);
}

/** Ten wrong passwords, each sent once the delay before it has passed: the account is then locked. */
async function lockOut(email: string): Promise<void> {
  for (let index = 0; index < 10; index += 1) {
    advance(16);
    await attempt(email, "wrong");
  }
}

/** What the login page would say about a refused attempt, read at the injected clock. */
function messageOf(result: SignInResult): string {
  if (result.outcome !== "throttled") throw new Error(`expected a refusal, got ${result.outcome}`);
  return signInLockedMessage(secondsUntil(result.retryAt, clock));
}

describe("sign-in attempt limits", () => {
  it("refuses the right password after 50 wrong ones sent within 3 seconds", async () => {
    const outcomes = [];
    for (let index = 0; index < 50; index += 1) {
      outcomes.push((await attempt(ADA, `guess-${index}`)).outcome);
      advance(0.06);
    }
    expect(outcomes.slice(0, 5)).toEqual(Array(5).fill("wrong-credentials"));
    expect(outcomes.filter((outcome) => outcome === "wrong-credentials").length).toBeLessThanOrEqual(7);
    expect((await attempt(ADA, DEMO_PASSWORD)).outcome).toBe("throttled");
  });

  it("locks the account at the tenth failure for 15 minutes, then lets the right password in", async () => {
    await lockOut(ADA);
    expect(messageOf(await attempt(ADA, DEMO_PASSWORD))).toBe(
      "Sign-in is temporarily locked after too many failed attempts. Try again in 15 minutes.",
    );
    advance(14 * 60);
    expect(messageOf(await attempt(ADA, DEMO_PASSWORD))).toContain("Try again in 1 minute.");
    advance(60);
    expect(await attempt(ADA, DEMO_PASSWORD)).toMatchObject({ outcome: "signed-in" });
  });

  it("makes each attempt after five failures wait longer: 1 s, 2 s, 4 s, 8 s, 16 s, then locks at ten", async () => {
    for (let index = 0; index < 5; index += 1) {
      expect((await attempt(ADA, "wrong")).outcome).toBe("wrong-credentials");
    }
    const waits = [];
    for (let index = 0; index < 4; index += 1) {
      const refused = await attempt(ADA, DEMO_PASSWORD);
      if (refused.outcome !== "throttled") throw new Error(`expected a refusal, got ${refused.outcome}`);
      const wait = secondsUntil(refused.retryAt, clock);
      waits.push(wait);
      advance(wait);
      expect((await attempt(ADA, "wrong")).outcome).toBe("wrong-credentials");
    }
    expect(waits).toEqual([1, 2, 4, 8]);
    advance(16);
    // The tenth failure says so at once.
    expect(messageOf(await attempt(ADA, "wrong"))).toContain("Try again in 15 minutes.");
  });

  it("tells the delay in seconds and lets the right password in once it has passed", async () => {
    for (let index = 0; index < 5; index += 1) await attempt(ADA, "wrong");
    const early = await attempt(ADA, DEMO_PASSWORD);
    expect(messageOf(early)).toBe(
      "Sign-in is temporarily locked after too many failed attempts. Try again in 1 second.",
    );
    advance(1);
    expect(await attempt(ADA, DEMO_PASSWORD)).toMatchObject({ outcome: "signed-in" });
  });

  it(
    "locks one address after 100 failures across different e-mails, known or not",
    async () => {
      for (let index = 0; index < 99; index += 1) {
        expect((await attempt(`nobody-${index}@example.com`, "wrong")).outcome).toBe("wrong-credentials");
      }
      expect((await attempt("nobody-99@example.com", "wrong")).outcome).toBe("throttled");
      expect((await attempt(ADA, DEMO_PASSWORD)).outcome).toBe("throttled");
      expect((await attempt(ADA, DEMO_PASSWORD, "198.51.100.1")).outcome).toBe("signed-in");
    },
    SCRYPT_HEAVY_TIMEOUT_MS,
  );

  it("counts an unknown e-mail per e-mail as an account, so lockouts do not reveal which exist", async () => {
    await lockOut("Nobody@Example.com");
    expect(messageOf(await attempt(" nobody@example.com", "wrong"))).toContain("15 minutes");
  });

  it(
    "forgets the account's failures after a success, and never throttles successes",
    async () => {
      for (let index = 0; index < 4; index += 1) await attempt(ADA, "wrong");
      expect((await attempt(ADA, DEMO_PASSWORD)).outcome).toBe("signed-in");
      for (let index = 0; index < 4; index += 1) {
        expect((await attempt(ADA, "wrong")).outcome).toBe("wrong-credentials");
      }
      for (let index = 0; index < 110; index += 1) {
        expect((await attempt(ADA, DEMO_PASSWORD)).outcome).toBe("signed-in");
      }
    },
    SCRYPT_HEAVY_TIMEOUT_MS,
  );

  it("lets at most five of many parallel guesses reach the password check", async () => {
    const results = await Promise.all(Array.from({ length: 30 }, () => attempt(ADA, "wrong")));
    const checked = results.filter((result) => result.outcome === "wrong-credentials").length;
    expect(checked).toBeLessThanOrEqual(5);
    expect((await attempt(ADA, DEMO_PASSWORD)).outcome).toBe("throttled");
  });
});
