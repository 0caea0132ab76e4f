import { expect, test } from "@playwright/test";
import { waitForHydration } from "../setup/hydration";
import { openApplicationCreatePage, setUpApplicationEnvironment } from "../setup/applications";

// Each test signs in, creates its own environment and waits for deployments (scaled by ENGINE_TIME_SCALE).
test.setTimeout(180_000);

test("nginx:1.27 deploys from the Create menu, its URL and running tasks on the overview", async ({
  page,
}) => {
  const environment = await setUpApplicationEnvironment(page, "app-nginx");
  await page.goto(`/env/${environment}/services`);
  await waitForHydration(page);
  await page.getByRole("button", { name: "Create service" }).click();
  await page.getByRole("menuitem", { name: "Application", exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/env/${environment}/applications/create$`));
  await expect(page.getByRole("region", { name: "Estimated monthly cost" })).toContainText(
    "Complete the configuration",
  );
  await page.getByRole("textbox", { name: "Image", exact: true }).fill("nginx:1.27");
  await page.getByRole("textbox", { name: "Name", exact: true }).fill("web");
  await expect(page.getByRole("region", { name: "Estimated monthly cost" })).toContainText("$");
  await page.getByRole("button", { name: "Deploy", exact: true }).click();
  await expect(page.getByTestId("service-title")).toHaveText("web");
  await expect(page.getByRole("alert").filter({ hasText: "Deploying web" })).toBeVisible();

  // An application runs as tasks (ECS on Fargate); the simulated cloud says its are made up.
  const tasks = page.getByRole("table", { name: "Tasks" });
  await expect(tasks.getByText("Running").first()).toBeVisible({ timeout: 120_000 });
  await expect(page.getByRole("heading", { name: "Tasks (simulated)" })).toBeVisible();
  await expect(page.getByTestId("service-endpoint")).toContainText("https://");
});

test("the shortcut opens the current environment's create page", async ({ page }) => {
  const environment = await setUpApplicationEnvironment(page, "app-short");
  await page.goto("/applications/create");
  await expect(page).toHaveURL(new RegExp(`/env/${environment}/applications/create$`));
  await expect(page.getByRole("heading", { level: 2, name: "Create application" })).toBeVisible();
});

test("validation messages show on the fields and what was typed stays", async ({ page }) => {
  const environment = await setUpApplicationEnvironment(page, "app-valid");
  await openApplicationCreatePage(page, environment);
  await page.getByRole("textbox", { name: "Image", exact: true }).fill("Not An Image");
  await page.getByRole("textbox", { name: "Name", exact: true }).fill("Web App");
  await page.getByRole("textbox", { name: "Replicas", exact: true }).fill("99");
  await page.getByRole("textbox", { name: "Pre-deploy command" }).fill("npm run migrate");
  await page.getByRole("button", { name: "Deploy", exact: true }).click();

  await expect(
    page.getByText("Image must be an image reference such as nginx:1.27 or ghcr.io/org/app:tag"),
  ).toBeVisible();
  await expect(page.getByText("Replicas must be between 1 and 50")).toBeVisible();
  await expect(page.getByRole("textbox", { name: "Name", exact: true })).toHaveAttribute(
    "aria-invalid",
    "true",
  );
  await expect(page.getByRole("textbox", { name: "Image", exact: true })).toHaveValue("Not An Image");
  await expect(page.getByRole("textbox", { name: "Name", exact: true })).toHaveValue("Web App");
  await expect(page.getByRole("textbox", { name: "Replicas", exact: true })).toHaveValue("99");
  await expect(page.getByRole("textbox", { name: "Pre-deploy command" })).toHaveValue("npm run migrate");
  await expect(page).toHaveURL(/\/applications\/create$/);
});

test("an earlier version is rolled back to after its diff is shown, and the history shows the rollback", async ({
  page,
}) => {
  const environment = await setUpApplicationEnvironment(page, "app-rollback");
  await openApplicationCreatePage(page, environment);
  await page.getByRole("textbox", { name: "Image", exact: true }).fill("nginx:1.27");
  await page.getByRole("textbox", { name: "Name", exact: true }).fill("web");
  await page.getByRole("button", { name: "Deploy", exact: true }).click();
  const stage = page.getByTestId("service-title").locator("xpath=..");
  await expect(stage).toContainText("Completed", { timeout: 120_000 });

  // A second deployment makes a second version; the first is then no longer the running one.
  await page.getByRole("button", { name: "Relaunch" }).click();
  await page
    .getByRole("dialog", { name: "Relaunch service" })
    .getByRole("button", { name: "Relaunch" })
    .click();
  await expect(stage).not.toContainText("Completed");
  await expect(stage).toContainText("Completed", { timeout: 120_000 });

  await page.getByRole("tab", { name: "History", exact: true }).click();
  const entries = page.getByTestId("history-entry");
  await expect(entries.first()).toContainText("Running version");
  await entries
    .filter({ hasText: "Create" })
    .getByRole("button", { name: "Roll back to this version" })
    .click();

  const dialog = page.getByRole("dialog", { name: "Roll back to this version" });
  await expect(dialog).toContainText("Version 1 (nginx:1.27)");
  await expect(dialog).toContainText("No configuration changes.");
  await dialog.getByRole("button", { name: "Roll back", exact: true }).click();

  await expect(page.getByRole("alert").filter({ hasText: "Rolling back to version 1" })).toBeVisible();
  await expect(entries.first()).toContainText("Rollback");
  await expect(stage).toContainText("Completed", { timeout: 120_000 });
  await expect(entries.first()).toContainText("Running version");
});
