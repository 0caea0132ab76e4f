import * as z from "zod";
import { requiredText } from "#contract/required-text";
import { NUL_CHARACTER_MESSAGE, servicePatterns } from "#contract/validation";
import type { Database } from "../db/index";
import { createAccount, normalizeEmail } from "./account";
import { limitSignUp } from "./login-throttle";

export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_LENGTH = 128;
/** The local part must be this long to be refused inside a password: "jo" would rule out too many. */
const LOCAL_PART_MIN_LENGTH = 3;

/** The password policy as the sign-up page states it; passwordPolicyError checks exactly this. */
export const PASSWORD_POLICY = `${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters, not containing the part of your email before the @.`;

export type SignUpField = "name" | "email" | "password";
export type SignUpForm = Record<SignUpField, string>;
export type SignUpErrors = Partial<Record<SignUpField, string>>;

export type SignUpResult =
  | { outcome: "signed-up"; accountId: string }
  | { outcome: "invalid"; errors: SignUpErrors }
  | { outcome: "email-taken" }
  | { outcome: "throttled"; retryAt: Date };

const withoutNul = (value: string) => !value.includes("\u0000");

const profileSchema = z.object({
  name: requiredText("Name", { max: 100 }).refine(withoutNul, NUL_CHARACTER_MESSAGE),
  email: requiredText("Email", { max: 254 })
    .regex(servicePatterns.email.regex, "Email must be an address such as ada@example.com")
    .refine(withoutNul, NUL_CHARACTER_MESSAGE),
});

/** What is wrong with a new password, said exactly; undefined when it follows PASSWORD_POLICY. */
export function passwordPolicyError(password: string, email: string): string | undefined {
  // Characters as a person counts them, not UTF-16 units.
  const length = [...password].length;
  if (length === 0) return "Password is a required field";
  if (length < PASSWORD_MIN_LENGTH) {
    return `Password must be at least ${PASSWORD_MIN_LENGTH} characters; this one has ${length}.`;
  }
  if (length > PASSWORD_MAX_LENGTH) {
    return `Password must be at most ${PASSWORD_MAX_LENGTH} characters; this one has ${length}.`;
  }
  const localPart = normalizeEmail(email).split("@")[0] ?? "";
  if (localPart.length >= LOCAL_PART_MIN_LENGTH && password.toLowerCase().includes(localPart)) {
    return `Password must not contain “${localPart}”, the part of your email before the @.`;
  }
  return undefined;
}

/**
 * Self-service sign-up: checks the form, counts the attempt against the client address (as failed sign-ins are
 * counted) and creates the account with its password hashed. An address that already has an account is
 * reported as such: the page then offers to sign in.
 */
export async function signUp(
  db: Database,
  { form, address }: { form: SignUpForm; address: string },
  now: () => Date = () => new Date(),
): Promise<SignUpResult> {
  const profile = profileSchema.safeParse({ name: form.name, email: form.email });
  const errors: SignUpErrors = {};
  if (!profile.success) {
    for (const issue of profile.error.issues) {
      const field = issue.path[0] as "name" | "email";
      errors[field] ??= issue.message;
    }
  }
  const passwordError = passwordPolicyError(form.password, form.email);
  if (passwordError) errors.password = passwordError;
  if (!profile.success || passwordError) return { outcome: "invalid", errors };

  const limit = await limitSignUp(db, address, now);
  if (limit.outcome === "throttled") return limit;
  const accountId = await createAccount(db, { ...profile.data, password: form.password });
  return accountId ? { outcome: "signed-up", accountId } : { outcome: "email-taken" };
}
