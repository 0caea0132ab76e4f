import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { chromium, type FullConfig } from "@playwright/test";
import { APP_SESSION_COOKIE, SAVED_SESSION_USERS, savedSessionFile, signInThroughForm } from "./sign-in";

/**
 * Runs once a run, after the stack is up: signs each demo user in through the form and saves the app's session
 * cookie, which signIn() then hands to the specs' browsers instead of signing in again. Cookie sessions last a
 * week and the access token in them an hour (ACCESS_TOKEN_TTL_SECONDS), refreshed by the app: enough for a run.
 */
export default async function signInDemoUsers(config: FullConfig) {
  const use = config.projects[0]?.use ?? {};
  const browser = await chromium.launch(use.launchOptions);
  try {
    await Promise.all(
      SAVED_SESSION_USERS.map(async (email) => {
        const context = await browser.newContext({ baseURL: use.baseURL });
        try {
          const page = await context.newPage();
          page.setDefaultTimeout(30_000);
          await signInThroughForm(page, email);
          const cookies = (await context.cookies()).filter((cookie) => cookie.name === APP_SESSION_COOKIE);
          if (cookies.length !== 1) throw new Error(`no app session cookie after ${email} signed in`);
          const file = savedSessionFile(email);
          mkdirSync(path.dirname(file), { recursive: true });
          writeFileSync(file, JSON.stringify({ cookies, origins: [] }));
        } finally {
          await context.close();
        }
      }),
    );
  } finally {
    await browser.close();
  }
}
