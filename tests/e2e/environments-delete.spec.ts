import { expect, test } from "@playwright/test";
import { createEnvironment, openEnvironment, uniqueEnvironmentName } from "../setup/environments";
import { signIn } from "../setup/sign-in";

// Each test creates its environment first (through the create page's action, not its form).
test.setTimeout(60_000);

test("an environment is deleted once its name is typed, and the list says so", async ({ page }) => {
  const environment = uniqueEnvironmentName("doomed");
  await signIn(page, "ada@example.com");
  await createEnvironment(page, environment);
  await openEnvironment(page, environment);

  await page.getByRole("button", { name: "Delete environment" }).click();
  const dialog = page.getByRole("dialog", { name: "Delete environment" });
  const confirm = dialog.getByRole("button", { name: "Delete", exact: true });
  await expect(confirm).toBeDisabled();
  await dialog.getByLabel(`Type ${environment} to confirm`).fill(`${environment}-typo`);
  await expect(confirm).toBeDisabled();
  await dialog.getByLabel(`Type ${environment} to confirm`).fill(environment);
  await confirm.click();

  await expect(page).toHaveURL(/\/environments$/);
  await expect(
    page.getByRole("alert").filter({ hasText: `Environment ${environment} deleted` }),
  ).toBeVisible();
  await expect(page.getByRole("link", { name: environment, exact: true })).toHaveCount(0);
});

test("the platform's refusal (409) comes back as an error toast and the environment stays", async ({
  page,
}) => {
  const environment = uniqueEnvironmentName("protected");
  await signIn(page, "ada@example.com");
  await createEnvironment(page, environment);
  await openEnvironment(page, environment, "config");
  await page.getByText("Deletion protection").click();
  await page.getByRole("button", { name: "Save configuration" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Configuration saved" })).toBeVisible();

  await page.getByRole("button", { name: "Delete environment" }).click();
  const dialog = page.getByRole("dialog", { name: "Delete environment" });
  await dialog.getByLabel(`Type ${environment} to confirm`).fill(environment);
  await dialog.getByRole("button", { name: "Delete", exact: true }).click();

  const message = "Deletion protection is on: turn it off in the environment's configuration first";
  await expect(page.locator("[data-toast-variant='error']").filter({ hasText: message })).toBeVisible();
  await expect(dialog.getByRole("alert").filter({ hasText: message })).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/env/${environment}/config$`));
});
