import { expect, test } from "@playwright/test";
import { createEnvironment, openEnvironment, uniqueEnvironmentName } from "../setup/environments";
import { signIn } from "../setup/sign-in";

// Each test creates its environment first (through the create page's action, not its form).
test.setTimeout(60_000);

test("the configuration is edited behind the unsaved-changes guard and saved", async ({ page }) => {
  const environment = uniqueEnvironmentName("config");
  await signIn(page, "ada@example.com");
  await createEnvironment(page, environment);
  await openEnvironment(page, environment, "config");

  const description = page.getByLabel("Description");
  await description.fill("Where release candidates are tried");
  const guard = page.getByRole("dialog", { name: "You have unsaved changes" });
  await page.getByRole("tab", { name: "Variables" }).click();
  await expect(guard).toBeVisible();
  await guard.getByRole("button", { name: "Review changes" }).click();
  await expect(guard).toBeHidden();
  await expect(page).toHaveURL(new RegExp(`/env/${environment}/config$`));
  await expect(description).toHaveValue("Where release candidates are tried");

  await page.getByText("Deploy automatically").click();
  await page.getByLabel("Maintenance hour (UTC)").fill("24");
  await page.getByLabel("Maintenance hour (UTC)").blur();
  await expect(page.getByText("must be between 0 and 23")).toBeVisible();
  await page.getByLabel("Maintenance hour (UTC)").fill("5");
  await page.getByRole("textbox", { name: "Maintenance day", exact: true }).click();
  await page.getByRole("option", { name: "Saturday" }).click();
  await page.getByRole("button", { name: "Save configuration" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Configuration saved" })).toBeVisible();
  await expect(guard).toHaveCount(0);

  await page.reload();
  await expect(description).toHaveValue("Where release candidates are tried");
  await expect(page.getByLabel("Deploy automatically")).toBeChecked();
  await expect(page.getByLabel("Maintenance hour (UTC)")).toHaveValue("5");
  await expect(page.getByRole("textbox", { name: "Maintenance day", exact: true })).toHaveValue("Saturday");

  // Saved: leaving asks nothing.
  await page.getByRole("tab", { name: "Overview" }).click();
  await expect(page).toHaveURL(new RegExp(`/env/${environment}$`));
  await expect(guard).toHaveCount(0);
});

test("add-ons are switched, re-estimated and saved", async ({ page }) => {
  const environment = uniqueEnvironmentName("addons");
  await signIn(page, "ada@example.com");
  await createEnvironment(page, environment);
  await openEnvironment(page, environment, "addons");

  const estimate = page.getByRole("region", { name: "Estimated monthly cost with these add-ons" });
  await expect(estimate.getByTestId("monthly-cost-estimate")).toHaveText(/^\$\d/);
  const before = await estimate.getByTestId("monthly-cost-estimate").textContent();
  await page.getByText("Backups", { exact: true }).click();
  await expect(estimate.getByTestId("monthly-cost-estimate")).not.toHaveText(before ?? "");
  await expect(estimate).toContainText(/backup/i);

  await page.getByRole("button", { name: "Save add-ons" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Add-ons saved" })).toBeVisible();
  await page.reload();
  await expect(page.getByLabel("Backups")).toBeChecked();
  await expect(page.getByLabel("Observability")).not.toBeChecked();
});
