import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { OpenDatabase } from "../db/index";
import { loginAttempts } from "../db/schema";
import { ensureRoles } from "../db/roles";
import { DEMO_PASSWORD, seedDemoData } from "../seed/demo-data";
import { openTestDb } from "../testing/db";
import { ephemeralSecretCipher } from "../lib/cipher";
import { secondsUntil, signInWithPassword } from "./login-throttle";
import { signUpLockedMessage } from "./pages";
import { passwordPolicyError, signUp } from "./sign-up";

describe("the password policy", () => {
  it("counts characters as people do, so 11 emoji are too short", () => {
    expect(passwordPolicyError("🔒".repeat(11), "ada@example.com")).toBe(
      "Password must be at least 12 characters; this one has 11.",
    );
    expect(passwordPolicyError("🔒".repeat(12), "ada@example.com")).toBeUndefined();
    expect(passwordPolicyError("é".repeat(128), "ada@example.com")).toBeUndefined();
    expect(passwordPolicyError("é".repeat(129), "ada@example.com")).toBe(
      "Password must be at most 128 characters; this one has 129.",
    );
  });

  it("refuses the e-mail's local part in any case, from three characters on", () => {
    expect(passwordPolicyError("my-ADA-password", " Ada@Example.com")).toBe(
      "Password must not contain “ada”, the part of your email before the @.",
    );
    expect(passwordPolicyError("my-ADA-password", "ad@example.com")).toBeUndefined();
    expect(passwordPolicyError("my-ADA-password", "not an address")).toBeUndefined();
  });
});

describe("sign-up attempt limits", () => {
  const HOME = "203.0.113.9";
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

  const form = { name: "Ada Again", email: "ada@example.com", password: "a long enough password" };

  it("shares the address's 100 attempts with failed sign-ins, for 15 minutes", async () => {
    for (let index = 0; index < 100; index += 1) {
      const result = await signUp(database.db, { form, address: HOME }, () => clock);
      expect(result.outcome).toBe("email-taken");
    }
    const refused = await signUp(database.db, { form, address: HOME }, () => clock);
    if (refused.outcome !== "throttled") throw new Error(`expected a refusal, got ${refused.outcome}`);
    expect(signUpLockedMessage(secondsUntil(refused.retryAt, clock))).toBe(
      "Too many sign-ups and sign-in attempts from your network. Try again in 15 minutes.",
    );
    const signIn = () =>
      signInWithPassword(
        database.db,
        { email: "ada@example.com", password: DEMO_PASSWORD, address: HOME },
        () => clock,
      );
    expect((await signIn()).outcome).toBe("throttled");

    clock = new Date(clock.getTime() + 15 * 60 * 1000);
    expect((await signIn()).outcome).toBe("signed-in");
    expect((await signUp(database.db, { form, address: HOME }, () => clock)).outcome).toBe("email-taken");
  });

  it("does not count a form that breaks a rule: it reveals nothing and creates nothing", async () => {
    for (let index = 0; index < 120; index += 1) {
      const result = await signUp(
        database.db,
        { form: { ...form, password: "short" }, address: HOME },
        () => clock,
      );
      expect(result.outcome).toBe("invalid");
    }
    expect((await signUp(database.db, { form, address: HOME }, () => clock)).outcome).toBe("email-taken");
  });
});
