import { expect, test, type Page } from "@playwright/test";
import { createEnvironment, uniqueEnvironmentName } from "../setup/environments";
import { waitForHydration } from "../setup/hydration";
import { signIn } from "../setup/sign-in";

// Each test creates its environment (through the create page's action) and a queue (a type whose defaults are
// complete, through the UI), then waits for the engine (ENGINE_TIME_SCALE in playwright.config.ts) to deploy it.
test.setTimeout(150_000);

const RETRY_LIMIT =
  "Maximum number of retries reached. Please contact support for assistance or alter your infrastructure configuration.";

/** Creates and deploys a queue named `name`; ends on its details page, hydrated. */
async function createQueue(page: Page, environment: string, name: string): Promise<string> {
  return createService(page, environment, "queue", name);
}

/** Creates and deploys a service of a type whose defaults are complete; ends on its details page, hydrated. */
async function createService(
  page: Page,
  environment: string,
  serviceType: "queue" | "network",
  name: string,
): Promise<string> {
  await page.goto(`/env/${environment}/services/${serviceType}/create`);
  await waitForHydration(page);
  await page.getByRole("textbox", { name: "Name", exact: true }).fill(name);
  await page.getByRole("button", { name: "Create", exact: true }).click();
  await expect(page.getByTestId("service-title")).toHaveText(name);
  await waitForHydration(page);
  const match = /\/services\/([^/?]+)/.exec(new URL(page.url()).pathname);
  expect(match).not.toBeNull();
  return match?.[1] ?? "";
}

async function expectStage(page: Page, stage: string, timeout = 90_000) {
  await expect(page.getByTestId("service-title").locator("xpath=..")).toContainText(stage, { timeout });
}

async function openTab(page: Page, name: string) {
  await page.getByRole("tab", { name, exact: true }).click();
  await expect(page.getByRole("tab", { name, exact: true })).toHaveAttribute("aria-selected", "true");
}

test("a deploy is followed to completion, its logs and metrics read, an attribute revealed, and it is deleted", async ({
  page,
}) => {
  const environment = uniqueEnvironmentName("svc-op");
  await signIn(page, "ada@example.com");
  await createEnvironment(page, environment);
  const serviceId = await createQueue(page, environment, "orders");

  // The page polls while the engine works, without a reload.
  await expectStage(page, "Completed");
  await expect(page.getByTestId("overview-retries-used")).toHaveText("0 of 3");
  // A queue runs on nothing of the account's: the overview lists no pods, tasks, instances or nodes.
  await expect(page.getByRole("heading", { name: /^(Pods|Tasks|Instances|Nodes)\b/ })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Relaunch" })).toBeVisible();

  // LIVE logs: the tail shows the deployment's lines and can be paused.
  await openTab(page, "Logs");
  const live = page.getByRole("log", { name: "Live logs" });
  await expect(live.getByTestId("log-line").first()).toBeVisible();
  await page.getByRole("button", { name: "Pause" }).click();
  await expect(page.getByText(/^Paused ·/)).toBeVisible();
  await page.getByRole("button", { name: "Resume" }).click();

  // SEARCH logs: results newest first; a range that ends before it starts is refused on the form.
  await page.getByText("Search", { exact: true }).click();
  await expect(page).toHaveURL(/logType=SEARCH/);
  await page.getByRole("button", { name: "Search", exact: true }).click();
  const results = page.getByRole("log", { name: "Search results" });
  await expect(results.getByTestId("log-line").first()).toBeVisible();
  const times = (await results.getByTestId("log-line").allTextContents()).map((line) => line.slice(0, 19));
  expect([...times].sort().reverse()).toEqual(times);
  await page.getByLabel("Text").fill("no line says this 42");
  await page.getByRole("button", { name: "Search", exact: true }).click();
  await expect(page.getByTestId("logs-empty")).toHaveText("No log lines match this search.");
  await page.goto(
    `/env/${environment}/services/${serviceId}?tab=logs&logType=SEARCH&from=2025-02-01+00:00:00&to=2025-01-01+00:00:00`,
  );
  await expect(page.getByText("The end must not be before the start")).toBeVisible();

  // History links to the logs of its deployment.
  await page.goto(`/env/${environment}/services/${serviceId}?tab=history`);
  await waitForHydration(page);
  await expect(page.getByTestId("history-entry").first()).toContainText("Create");
  await page.getByRole("link", { name: "View logs" }).first().click();
  await expect(page).toHaveURL(/tab=logs&logType=SEARCH&podNames=.+&timestamps=/);
  await expect(
    page.getByRole("log", { name: "Search results" }).getByTestId("log-line").first(),
  ).toBeVisible();

  // Metrics: charts per metric, with a range selector.
  await openTab(page, "Monitoring");
  await expect(page.getByRole("figure", { name: "CPU chart" })).toBeVisible();
  await expect(page.getByRole("figure", { name: "Latency chart" })).toBeVisible();
  await page.getByText("24h", { exact: true }).click();
  await expect(page).toHaveURL(/range=24h/);
  await expect(page.getByRole("figure", { name: "CPU chart" })).toBeVisible();
  await openTab(page, "Health");
  await expect(page.getByTestId("current-cpu")).toContainText("%");

  // Cost: the estimate and its breakdown.
  await openTab(page, "Cost");
  await expect(page.getByTestId("monthly-cost-estimate")).toHaveText(/^\$\d/);

  // Attributes: masked until revealed.
  await openTab(page, "Attributes");
  const attribute = page.getByTestId("attribute-secretAccessKey");
  const masked = await attribute.textContent();
  await page.getByRole("button", { name: "Reveal secretAccessKey" }).click();
  await expect(attribute).not.toHaveText(masked ?? "");
  await expect(page.getByRole("button", { name: "Copy secretAccessKey" })).toBeVisible();

  // Delete, confirmed by typing the name.
  await page.getByRole("button", { name: "Delete", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Delete service" });
  await expect(dialog.getByRole("button", { name: "Delete service" })).toBeDisabled();
  await dialog.getByLabel("Type orders to confirm").fill("orders");
  await dialog.getByRole("button", { name: "Delete service" }).click();
  await expect(page).toHaveURL(new RegExp(`/env/${environment}/services$`));
  await expect(page.getByRole("alert").filter({ hasText: "Service orders deleted" })).toBeVisible();
});

test("a failing deployment is retried until the retry limit", async ({ page }) => {
  const environment = uniqueEnvironmentName("svc-fail");
  await signIn(page, "ada@example.com");
  await createEnvironment(page, environment);
  await createQueue(page, environment, "jobs-fail-deploy");

  for (let retry = 1; retry <= 3; retry++) {
    await expectStage(page, "Failed");
    await expect(page.getByTestId("service-failure")).toBeVisible();
    await page.getByRole("button", { name: "Retry", exact: true }).click();
    await expect(page.getByTestId("overview-retries-used")).toHaveText(`${retry} of 3`, { timeout: 90_000 });
  }
  await expectStage(page, "Failed");
  await expect(page.getByTestId("service-failure")).toContainText(RETRY_LIMIT);
  await page.getByRole("button", { name: "Retry", exact: true }).click();
  await expect(page.getByTestId("service-action-error")).toContainText(RETRY_LIMIT);
  await expect(page.getByRole("alert").filter({ hasText: RETRY_LIMIT }).first()).toBeVisible();
});

test("settings are guarded while edited, and a save on a stale version shows the other change", async ({
  page,
  context,
}) => {
  const environment = uniqueEnvironmentName("svc-edit");
  await signIn(page, "ada@example.com");
  await createEnvironment(page, environment);
  const serviceId = await createQueue(page, environment, "events");
  await expectStage(page, "Completed");

  const scalingUrl = `/env/${environment}/services/${serviceId}?tab=settings&subTab=scaling`;
  await page.goto(scalingUrl);
  await waitForHydration(page);

  // The guard: leaving an edited form asks first.
  await page.getByLabel("Maximum instances").fill("6");
  const guard = page.getByRole("dialog", { name: "You have unsaved changes" });
  await page.getByRole("tab", { name: "Overview" }).click();
  await expect(guard).toBeVisible();
  await guard.getByRole("button", { name: "Review changes" }).click();
  await expect(guard).toBeHidden();
  await expect(page.getByLabel("Maximum instances")).toHaveValue("6");

  // Someone else saves the same part from another tab first.
  const other = await context.newPage();
  await other.goto(scalingUrl);
  await waitForHydration(other);
  await other.getByLabel("Maximum instances").fill("9");
  await other.getByRole("button", { name: "Save settings" }).click();
  await expect(other.getByRole("alert").filter({ hasText: "Settings saved" })).toBeVisible();
  await other.close();

  // This save is refused as stale: the differences are shown and the input kept.
  const save = page.getByRole("button", { name: "Save settings" });
  await save.click();
  const notice = page.getByTestId("conflict-notice");
  await expect(notice).toBeVisible();
  await expect(notice.getByRole("row", { name: /maxInstances/ })).toContainText("6");
  await expect(notice.getByRole("row", { name: /maxInstances/ })).toContainText("9");
  await expect(page.getByLabel("Maximum instances")).toHaveValue("6");

  // Their save syncs the service; saving is possible again once that sync has finished (the page polls).
  await expectStage(page, "Completed");
  await expect(page.getByTestId("deployment-running-notice")).toBeHidden({ timeout: 30_000 });
  await expect(save).toBeEnabled();

  // Saving again applies it on top of their version.
  await save.click();
  await expect(page.getByRole("alert").filter({ hasText: "Settings saved" })).toBeVisible();
  await expect(notice).toBeHidden();
  await page.reload();
  await expect(page.getByLabel("Maximum instances")).toHaveValue("6");

  // The sub-pages of SPEC §2.2 lead to the matching tab.
  await page.goto(`/env/${environment}/services/${serviceId}/variables`);
  await expect(page).toHaveURL(/tab=settings&subTab=envvars/);
  await expect(page.getByRole("tab", { name: "Environment variables" })).toHaveAttribute(
    "aria-selected",
    "true",
  );
  await expect(page.getByRole("tab", { name: "Schedule" })).toHaveCount(0);
});

test("a deployed service's metrics are drawn as lines in the theme's colour", async ({ page }) => {
  // The demo database has run for days, so its charts have a whole hour of points.
  await signIn(page, "ada@example.com", "/env/production/services");
  await page.getByRole("link", { name: "orders-db", exact: true }).click();
  await expect(page.getByTestId("service-title")).toHaveText("orders-db");
  await openTab(page, "Monitoring");
  // A colour name the theme lacks would leave the line without a visible stroke.
  for (const chart of ["CPU chart", "Latency chart"]) {
    await expect(
      page.getByRole("figure", { name: chart }).locator("path.recharts-line-curve").first(),
    ).toHaveAttribute("stroke", /purple-6/);
  }
});

test("a configuration change saved as a draft is reviewed before deploy, then deployed", async ({ page }) => {
  const environment = uniqueEnvironmentName("svc-draft");
  await signIn(page, "ada@example.com");
  await createEnvironment(page, environment);
  await createQueue(page, environment, "events");
  await expectStage(page, "Completed");

  await openTab(page, "Pre-deploy");
  await expect(page.getByTestId("pre-deploy-empty")).toBeVisible();

  await openTab(page, "Configuration");
  const timeout = page.getByRole("textbox", { name: /^Visibility timeout \(seconds\)/ });
  await expect(timeout).toHaveValue("30");
  await timeout.fill("90");
  await page.getByRole("button", { name: "Save draft" }).click();
  await expect(page.getByText("A draft is waiting")).toBeVisible();
  await expect(timeout).toHaveValue("90");

  await openTab(page, "Pre-deploy");
  const changes = page.getByRole("table", { name: "Configuration changes" });
  await expect(changes).toContainText("visibilityTimeoutSeconds");
  await expect(changes).toContainText("30");
  await expect(changes).toContainText("90");
  await page.getByRole("button", { name: "Deploy changes" }).last().click();
  await expectStage(page, "Completed");
  await expect(page.getByTestId("pre-deploy-empty")).toBeVisible();

  await openTab(page, "History");
  await expect(page.getByTestId("history-entry").first()).toContainText("Provision");
  await expect(page.getByTestId("history-entry").first()).toContainText("visibilityTimeoutSeconds");
});

test("while a deployment runs, the settings and configuration cannot be saved, and can once it ends", async ({
  page,
}) => {
  const environment = uniqueEnvironmentName("svc-busy");
  await signIn(page, "ada@example.com");
  await createEnvironment(page, environment);
  // A network whose deployment fails keeps every other service of the environment waiting for it.
  const networkId = await createService(page, environment, "network", "net-fail-deploy");
  await expectStage(page, "Failed");
  const queueId = await createQueue(page, environment, "events");
  await expectStage(page, "Infrastructure not ready");

  await page.goto(`/env/${environment}/services/${queueId}?tab=settings&subTab=scaling`);
  await waitForHydration(page);
  await expect(page.getByTestId("deployment-running-notice")).toBeVisible();
  await expect(page.getByRole("button", { name: "Save settings" })).toBeDisabled();
  await openTab(page, "Configuration");
  await expect(page.getByTestId("deployment-running-notice")).toBeVisible();
  await expect(page.getByRole("button", { name: "Save draft" })).toBeDisabled();
  await expect(page.getByRole("button", { name: "Save and deploy" })).toBeDisabled();

  // Without the failed network the queue deploys; its page follows and the forms can be saved again.
  const other = await page.context().newPage();
  await other.goto(`/env/${environment}/services/${networkId}`);
  await waitForHydration(other);
  await other.getByRole("button", { name: "Delete", exact: true }).click();
  const dialog = other.getByRole("dialog", { name: "Delete service" });
  await dialog.getByLabel("Type net-fail-deploy to confirm").fill("net-fail-deploy");
  await dialog.getByRole("button", { name: "Delete service" }).click();
  await expect(other).toHaveURL(new RegExp(`/env/${environment}/services$`));
  await other.close();

  await expectStage(page, "Completed");
  await expect(page.getByTestId("deployment-running-notice")).toBeHidden();
  await expect(page.getByRole("button", { name: "Save draft" })).toBeEnabled();
  await page.goto(`/env/${environment}/services/${queueId}?tab=settings&subTab=scaling`);
  await waitForHydration(page);
  await page.getByLabel("Maximum instances").fill("7");
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Settings saved" })).toBeVisible();
});

test("Relaunch asks first, in a dialog the keyboard can answer, and without JavaScript in a confirmation step", async ({
  page,
  browser,
}) => {
  const environment = uniqueEnvironmentName("svc-relaunch");
  await signIn(page, "ada@example.com");
  await createEnvironment(page, environment);
  await createQueue(page, environment, "jobs");
  await expectStage(page, "Completed");
  const servicePage = page.url();

  await page.getByRole("button", { name: "Relaunch" }).click();
  const dialog = page.getByRole("dialog", { name: "Relaunch service" });
  await expect(dialog).toContainText("deploys jobs again with its current configuration");
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expectStage(page, "Completed");

  await page.getByRole("button", { name: "Relaunch" }).click();
  await dialog.getByRole("button", { name: "Relaunch" }).focus();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("alert").filter({ hasText: "Deployment started" })).toBeVisible();
  await expectStage(page, "Completed");

  const withoutScript = await (await browser.newContext({ javaScriptEnabled: false })).newPage();
  await signIn(withoutScript, "ada@example.com", servicePage);
  await withoutScript.getByRole("button", { name: "Relaunch" }).click();
  await expect(withoutScript).toHaveURL(/[?&]confirm=relaunch/);
  const step = withoutScript.getByRole("region", { name: "Relaunch service" });
  await expect(step).toContainText("deploys jobs again with its current configuration");
  await step.getByRole("link", { name: "Cancel" }).click();
  await expect(withoutScript).not.toHaveURL(/confirm=/);
  await withoutScript.getByRole("button", { name: "Relaunch" }).click();
  await step.getByRole("button", { name: "Relaunch" }).click();
  await expect(withoutScript).not.toHaveURL(/confirm=/);
  await expect(withoutScript.getByTestId("service-title").locator("xpath=..")).not.toContainText("Completed");
});
