import { expect, test, type Page } from "@playwright/test";
import { waitForHydration } from "../setup/hydration";
import { createEnvironment, openEnvironment, uniqueEnvironmentName } from "../setup/environments";
import { signIn } from "../setup/sign-in";

// A clone passes its steps at ENGINE_TIME_SCALE (a second or so each) and the page looks again every
// POLL_INTERVAL_MS (500 ms here, SPEC's 5 s by default; playwright.config.ts).
test.setTimeout(120_000);

const step = (page: Page, state: string) => page.getByTestId(`clone-step-${state}`);

async function startClone(page: Page, source: string, clone: string) {
  await openEnvironment(page, source);
  await page.getByRole("link", { name: "Clone" }).click();
  await expect(page).toHaveURL(/\/environments\/create\?workspaceId=[^&]+&mode=clone$/);
  await expect(page.getByRole("heading", { name: `Clone ${source}` })).toBeVisible();
  await waitForHydration(page);
  // The clone starts where its source runs.
  await expect(page.getByRole("textbox", { name: "Region", exact: true })).toHaveValue(
    "US East (N. Virginia) · us-east-1",
  );
  await page.getByLabel("Name").fill(clone);
  await page.getByRole("button", { name: "Clone environment" }).click();
  await expect(page).toHaveURL(new RegExp(`/env/${clone}/clone$`));
  await expect(page.getByRole("alert").filter({ hasText: `Cloning ${source} into ${clone}` })).toBeVisible();
}

test("an environment is cloned and the clone is followed through launch to review-and-deploy", async ({
  page,
}) => {
  const source = uniqueEnvironmentName("source");
  const clone = uniqueEnvironmentName("clone");
  await signIn(page, "ada@example.com");
  await createEnvironment(page, source);
  await openEnvironment(page, source, "variables");
  await page.getByRole("button", { name: "Add variable" }).click();
  const dialog = page.getByRole("dialog", { name: "Add variable" });
  await dialog.getByLabel("Name").fill("CLONED_SETTING");
  await dialog.getByLabel("Value").fill("from-the-source");
  await dialog.getByRole("button", { name: "Add variable" }).click();
  await expect(dialog).toBeHidden();

  await startClone(page, source, clone);
  await expect(page.getByText(`Cloned from ${source}`)).toBeVisible();
  await page.getByRole("tab", { name: "Overview" }).click();
  await expect(page.getByText(`This environment is being cloned from ${source}.`)).toBeVisible();
  await page.getByRole("link", { name: "Follow the clone" }).click();
  await expect(page).toHaveURL(new RegExp(`/env/${clone}/clone$`));
  for (const state of [
    "CREATING_DRAFT_RESOURCES",
    "WAITING_FOR_LAUNCH_RESOURCES_EVENT",
    "QUEUE_RESOURCES_FOR_LAUNCH",
    "LAUNCH_RESOURCES",
    "CREATING_DRAFT_APPLICATIONS",
    "REVIEW_AND_DEPLOY_APPLICATIONS",
  ]) {
    await expect(step(page, state)).toBeVisible();
  }

  // The draft resources are made, then the clone waits for the user's go-ahead.
  await expect(step(page, "WAITING_FOR_LAUNCH_RESOURCES_EVENT")).toHaveAttribute("data-status", "waiting", {
    timeout: 30_000,
  });
  await expect(step(page, "CREATING_DRAFT_RESOURCES")).toHaveAttribute("data-status", "done");
  await expect(step(page, "LAUNCH_RESOURCES")).toHaveAttribute("data-status", "pending");
  await page.getByRole("button", { name: "Launch resources" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Launching resources" })).toBeVisible();

  const handOff = page.getByTestId("review-and-deploy");
  await expect(handOff).toBeVisible({ timeout: 60_000 });
  await expect(step(page, "REVIEW_AND_DEPLOY_APPLICATIONS")).toHaveAttribute("data-status", "waiting");
  for (const state of ["QUEUE_RESOURCES_FOR_LAUNCH", "LAUNCH_RESOURCES", "CREATING_DRAFT_APPLICATIONS"]) {
    await expect(step(page, state)).toHaveAttribute("data-status", "done");
  }

  // The clone got the source's variables.
  await page.getByRole("tab", { name: "Variables" }).click();
  await expect(page.getByTestId("variable-CLONED_SETTING").getByTestId("value-CLONED_SETTING")).toHaveText(
    "from-the-source",
  );
  await page.getByRole("tab", { name: "Clone progress" }).click();
  await expect(handOff).toBeVisible();

  await handOff.getByRole("button", { name: "Finish cloning" }).click();
  await expect(page).toHaveURL(new RegExp(`/env/${clone}$`));
  await expect(page.getByRole("alert").filter({ hasText: "Cloning finished" })).toBeVisible();
  await expect(page.getByRole("group", { name: "Stage" })).toHaveText(/Completed/);

  await page.goto("/environments");
  const row = page.getByRole("table", { name: "Environments" }).getByRole("row").filter({ hasText: clone });
  await expect(row).toContainText(`Cloned from ${source}`);
  await expect(row).toContainText("Completed");
});

test("a failed clone shows the step that failed with its details, and can be left", async ({ page }) => {
  const source = uniqueEnvironmentName("source");
  // The embedded platform fails a clone at the step its name names (ENGINE_FAILURE_INJECTION, set for e2e).
  const clone = uniqueEnvironmentName("fail-launch-resources");
  await signIn(page, "ada@example.com");
  await createEnvironment(page, source);
  await startClone(page, source, clone);

  await expect(page.getByRole("button", { name: "Launch resources" })).toBeVisible({ timeout: 30_000 });
  await page.getByRole("button", { name: "Launch resources" }).click();
  const failure = page.getByRole("alert").filter({ hasText: "Launch resources in the cloud failed" });
  await expect(failure).toBeVisible({ timeout: 60_000 });
  await expect(failure.getByTestId("clone-failure-details")).toContainText(
    "Failure injected at LAUNCH_RESOURCES",
  );
  await expect(step(page, "LAUNCH_RESOURCES")).toHaveAttribute("data-status", "failed");
  await expect(step(page, "CREATING_DRAFT_APPLICATIONS")).toHaveAttribute("data-status", "pending");

  // Elsewhere in the environment the failed clone is pointed out.
  await page.getByRole("tab", { name: "Overview" }).click();
  await expect(page.getByText("The clone of this environment stopped at a failed step.")).toBeVisible();
  await page.getByRole("link", { name: "See what went wrong" }).click();
  await expect(page).toHaveURL(new RegExp(`/env/${clone}/clone$`));

  await page.getByRole("button", { name: "Exit cloning" }).click();
  await expect(page).toHaveURL(new RegExp(`/env/${clone}$`));
  await expect(page.getByRole("alert").filter({ hasText: "Left the failed clone" })).toBeVisible();
  await expect(page.getByRole("group", { name: "Stage" })).toHaveText(/Failed/);
});
