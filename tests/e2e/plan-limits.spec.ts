import { expect, test } from "@playwright/test";
import { platformUrl } from "../../playwright.config";
import { createEnvironment } from "../setup/environments";
import { waitForHydration } from "../setup/hydration";

const PASSWORD = "correct horse battery staple";

test("a Free organization's fourth environment is refused on the form in the plan's words, keeping what was typed", async ({
  page,
}) => {
  test.setTimeout(60_000);
  const id = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`;
  await page.goto("/");
  await expect(page).toHaveURL(new RegExp(`^${platformUrl}/`));
  await page.getByRole("link", { name: "Create an account" }).click();
  await page.getByLabel("Name").fill("Mary Jackson");
  await page.getByLabel("Email").fill(`mary-${id}@example.com`);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(/\/organizations\/create$/);
  await page.getByLabel("Organization name").fill("Wind Tunnel");
  await page.getByLabel("Identifier").fill(`tunnel-${id}`);
  await page.getByRole("button", { name: "Create organization" }).click();
  await expect(page).toHaveURL(/\/onboarding$/);

  // The organization page states the plan; three environments are what Free allows.
  await page.goto("/settings/users/organization-overview");
  await expect(
    page.getByText("Up to 10 members, 3 environments, 20 services per environment and 5 service accounts."),
  ).toBeVisible();
  for (const name of ["production", "staging", "dev"]) await createEnvironment(page, name, { open: false });

  await page.goto("/environments/create");
  await waitForHydration(page);
  await page.getByLabel("Name").fill("qa");
  await page.getByRole("button", { name: "Create environment" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Not saved" })).toContainText(
    "The Free plan allows 3 environments; this organization has 3. Upgrade the plan or delete an environment.",
  );
  await expect(page.getByLabel("Name")).toHaveValue("qa");
});
