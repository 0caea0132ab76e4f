import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, type Page } from "@playwright/test";
import { waitForHydration } from "./hydration";

export const DEMO_PASSWORD = "password";

/** The demo users the specs sign in as; the global set-up (sign-in.global-setup.ts) signs each in once a run. */
export const SAVED_SESSION_USERS = ["ada@example.com", "bob@example.com"] as const;

/**
 * The app's session cookie: only it is saved and shared. The identity provider's own session (a cookie of the
 * platform, on the same host) is left out, so a spec that logs out ends only its own copy of the app session and
 * revokes nothing the others use.
 */
export const APP_SESSION_COOKIE = "__session";

/** Where the saved session of `email` is kept for this run (E2E_AUTH_DIR, made by playwright.config.ts). */
export function savedSessionFile(email: string): string {
  const directory = process.env.E2E_AUTH_DIR;
  if (!directory) throw new Error("E2E_AUTH_DIR is not set (playwright.config.ts sets it)");
  return path.join(directory, `${email}.json`);
}

type SavedCookies = Parameters<ReturnType<Page["context"]>["addCookies"]>[0];

function savedSession(email: string): SavedCookies | null {
  if (!(SAVED_SESSION_USERS as readonly string[]).includes(email)) return null;
  try {
    return (JSON.parse(readFileSync(savedSessionFile(email), "utf8")) as { cookies: SavedCookies }).cookies;
  } catch {
    return null;
  }
}

/** Fills the embedded identity provider's login page, which the app has redirected to. */
export async function submitLogin(page: Page, email: string, password = DEMO_PASSWORD) {
  await expect(page.getByLabel("Email")).toBeVisible();
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

/**
 * Opens `path` signed out, signs in at the identity provider and waits to be back in the app: a sign-in of its
 * own, with the identity provider's session. Specs that log out (and so revoke what the sign-in granted) use it.
 */
export async function signInThroughForm(page: Page, email: string, path = "/") {
  await page.goto(path);
  await submitLogin(page, email);
  await expect(page.getByTestId("user-name")).toBeVisible();
}

/**
 * Opens `path` signed in as `email`: with the app session the global set-up saved for this run (one sign-in per
 * demo user per run), or through the sign-in form for anyone else.
 */
export async function signIn(page: Page, email: string, path = "/") {
  const cookies = savedSession(email);
  if (!cookies) return signInThroughForm(page, email, path);
  await page.context().addCookies(cookies);
  await page.goto(path);
  await expect(page.getByTestId("user-name")).toBeVisible();
}

/** Opens the user menu in the app bar (SPEC §2.6), once the page is hydrated: a click before does nothing. */
export async function openUserMenu(page: Page) {
  await waitForHydration(page);
  await page.getByRole("button", { name: /^Account menu of / }).click();
  await expect(page.getByRole("menu")).toBeVisible();
}
