import { expect, type Page } from "@playwright/test";
import { createEnvironment, uniqueEnvironmentName } from "./environments";
import { waitForHydration } from "./hydration";
import { signIn } from "./sign-in";

/** Ada signed in, with a fresh environment of her own for one test's applications. */
export async function setUpApplicationEnvironment(page: Page, purpose: string) {
  const environment = uniqueEnvironmentName(purpose);
  await signIn(page, "ada@example.com");
  await createEnvironment(page, environment);
  return environment;
}

export async function openApplicationCreatePage(page: Page, environment: string) {
  await page.goto(`/env/${environment}/applications/create`);
  await waitForHydration(page);
  await expect(page.getByRole("heading", { level: 2, name: "Create application" })).toBeVisible();
}
