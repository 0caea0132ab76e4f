import { expect, type Page } from "@playwright/test";
import { waitForHydration } from "./hydration";

export const DEMO_PASSWORD = "password";

/** Fills the embedded identity provider's login page, which the app has redirected to. */
export async function submitLogin(page: Page, email: string, password = DEMO_PASSWORD) {
  await expect(page.getByLabel("Email")).toBeVisible();
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

/** Opens `path` signed out, signs in at the identity provider and waits to be back in the app. */
export async function signIn(page: Page, email: string, path = "/") {
  await page.goto(path);
  await submitLogin(page, email);
  await expect(page.getByTestId("user-name")).toBeVisible();
}

/** Opens the user menu in the app bar (SPEC §2.6), once the page is hydrated: a click before does nothing. */
export async function openUserMenu(page: Page) {
  await waitForHydration(page);
  await page.getByRole("button", { name: /^Account menu of / }).click();
  await expect(page.getByRole("menu")).toBeVisible();
}
