import type { SubmissionResult } from "@conform-to/react";
import type { ChangePlan } from "#contract/change-plans";
import type { Conflict } from "./conflict";

/** The intents of the details page's forms (every action is a POST form carrying one). */
export const serviceIntents = [
  "relaunch",
  "retry",
  "cancel",
  "delete",
  "save-config",
  "save-config-draft",
  "discard-draft",
  "save-settings",
  "create-ticket",
  "deploy-on-push",
  "rotate-deploy-secret",
  "deploy-commit",
] as const;
export type ServiceIntent = (typeof serviceIntents)[number];

/**
 * What the details page's action answers when it does not redirect: which form it is for (`form`: "config", a
 * settings part, or an intent), that form's conform result, the platform's refusal, and a stale-version conflict.
 */
export type ServiceActionData = {
  form: string;
  result?: SubmissionResult<string[]>;
  error?: string;
  conflict?: Conflict;
  /** The Jira issue opened for the failed deployment. */
  ticket?: { key: string; url: string };
  /** A deploy-on-push secret just made: answered once, to the member who made it (decision 034). */
  secret?: string;
  /**
   * The plan of a deployment the platform refused until the service's name is typed (it replaces the service and
   * deletes its data): the form's next step, with what was typed wrong, if anything.
   */
  plan?: { plan: ChangePlan; confirmationError?: string };
};

export function isServiceIntent(value: unknown): value is ServiceIntent {
  return serviceIntents.some((intent) => intent === value);
}
