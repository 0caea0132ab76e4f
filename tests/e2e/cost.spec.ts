import { readFile } from "node:fs/promises";
import { expect, test } from "@playwright/test";
import { startTestServer, type TestServer } from "../../platform/testing/provider-servers";
import { waitForHydration } from "../setup/hydration";
import { signIn } from "../setup/sign-in";

test.setTimeout(90_000);

const WEBHOOK_PATH = "/services/T0ACME/B0BUDGET/secret-webhook-path";

/** A Slack incoming webhook that takes every post on its path. */
let webhook: TestServer;
test.beforeAll(async () => {
  webhook = await startTestServer({
    "POST /services/:path+": (request) =>
      request.path === WEBHOOK_PATH ? { body: "ok" } : { status: 404, body: "no_service" },
  });
});
test.afterAll(async () => {
  await webhook.close();
});

test("Acme Corp's cost overview shows its month, a daily chart and a table whose total the CSV export repeats", async ({
  page,
}) => {
  await signIn(page, "ada@example.com");
  await page.getByRole("navigation", { name: "Main navigation" }).getByRole("link", { name: "Cost" }).click();
  await expect(page).toHaveURL(/\/cost$/);
  await expect(page.getByRole("heading", { name: "Cost", exact: true })).toBeVisible();

  for (const figure of ["Month to date", "Last month", "Change against last month"]) {
    await expect(page.getByRole("group", { name: figure, exact: true })).toContainText(/\$|%|No cost/);
  }
  const forecast = page.getByRole("group", { name: /^Forecast for the end of / });
  await expect(forecast).toContainText(/\$[\d,]+\.\d\d/);
  await expect(forecast).toContainText("Month to date plus the average daily cost of the last 7 full days");

  // Ninety days of backfilled history: the last 90 days' chart has bars, and the table a row per day.
  await waitForHydration(page);
  await page.getByRole("textbox", { name: "Window" }).click();
  await page.getByRole("option", { name: "Last 90 days" }).click();
  await page.getByRole("button", { name: "Show" }).click();
  await expect(page).toHaveURL(/window=90d/);
  const chart = page.getByRole("figure", { name: "Daily cost chart" });
  // A bar of a day without cost is an empty group: look for a drawn one, whichever environment it belongs to.
  await expect(chart.locator(".recharts-bar-rectangle .recharts-rectangle").first()).toBeVisible();
  await expect(chart.getByText("production").first()).toBeVisible();
  const daily = page.getByRole("table", { name: "Daily cost" });
  await expect(daily.locator("tbody tr")).toHaveCount(90);
  const pageTotal = (await page.getByTestId("cost-total").innerText()).replace(/[$,]/g, "");
  expect(Number(pageTotal)).toBeGreaterThan(0);
  await expect(page.getByRole("heading", { name: `Last 90 days: $` })).toContainText(
    Number(pageTotal).toLocaleString("en-US", { minimumFractionDigits: 2 }),
  );
  await expect(page.getByRole("table", { name: "Top services" })).toContainText("reports-db (deleted)");

  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("link", { name: "Export CSV" }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^cost-.*-90d\.csv$/);
  const lines = (await readFile(await download.path(), "utf8")).trim().split("\n");
  expect(lines[0]).toBe("date,environment,serviceType,cost");
  expect(lines.at(-1)).toBe(`Total,,,${pageTotal}`);
  // The rows are the days the page shows, and add up to its total.
  const rows = lines.slice(1, -1).map((line) => line.split(","));
  const days = new Set(rows.map(([date]) => date));
  expect(days.size).toBeGreaterThanOrEqual(89);
  const sum = rows.reduce((total, row) => total + Number(row.at(-1)), 0);
  expect(Math.abs(sum - Number(pageTotal))).toBeLessThan(0.01 * rows.length);
});

test("drilling down on Kubernetes cost goes from a cluster to its namespace to a workload", async ({
  page,
}) => {
  await signIn(page, "ada@example.com", "/cost/kubernetes");
  const clusters = page.getByRole("table", { name: "Clusters" });
  const cluster = clusters.getByRole("row").filter({ hasText: "main-cluster" });
  await expect(cluster).toContainText("production");
  await expect(cluster).toContainText(/\d+\.\d %/);
  await cluster.getByRole("link", { name: "main-cluster" }).click();

  await expect(page.getByRole("heading", { name: "Namespaces of main-cluster" })).toBeVisible();
  const namespaces = page.getByRole("table", { name: "Namespaces" });
  await expect(namespaces.getByRole("link", { name: "kube-system" })).toBeVisible();
  await namespaces.getByRole("link", { name: "production" }).click();

  await expect(page.getByRole("heading", { name: "Workloads in production" })).toBeVisible();
  const api = page.getByRole("table", { name: "Workloads" }).getByRole("row").filter({ hasText: /^api/ });
  await expect(api).toContainText("Deployment");
  await expect(api).toContainText(/\$[\d,]+\.\d\d/);
  const drillDown = page.getByRole("navigation", { name: "Drill-down" });
  await expect(drillDown).toContainText("Clusters/main-cluster/production");

  // Back up one level, keeping the window.
  await drillDown.getByRole("link", { name: "main-cluster" }).click();
  await expect(page.getByRole("table", { name: "Namespaces" })).toBeVisible();
});

test("a budget below the forecast raises its alerts on the budgets page and in Slack", async ({ page }) => {
  // A Slack connection that takes budget alerts.
  await signIn(page, "ada@example.com", "/settings/connections");
  await waitForHydration(page);
  await page.getByRole("link", { name: "Connect Slack and Teams" }).click();
  await page.getByRole("listitem").filter({ hasText: "Slack" }).click();
  await waitForHydration(page);
  await page.getByLabel("Name").fill(`Slack budgets ${Date.now().toString(36)}`);
  await page.getByLabel("Incoming webhook URL").fill(`${webhook.url}${WEBHOOK_PATH}`);
  await page.getByRole("button", { name: "Connect", exact: true }).click();
  await expect(page.getByTestId("connection-status")).toHaveText("Verified");
  await waitForHydration(page);
  const rules = page.getByRole("region", { name: "Notifications" });
  await rules.getByLabel("Budget alert").check();
  await rules.getByRole("button", { name: "Save notification rules" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Notification rules saved" })).toBeVisible();

  await page.goto("/cost/budgets");
  await waitForHydration(page);
  const form = page.getByRole("form", { name: "Set a budget" });
  await form.getByRole("textbox", { name: "Scope" }).click();
  await page.getByRole("option", { name: "staging" }).click();

  // A bad amount is told on its field and what was typed stays.
  await form.getByLabel("Amount a month (USD)").fill("0");
  await form.getByRole("button", { name: "Set budget" }).click();
  await expect(form.getByText("Amount must be a positive number")).toBeVisible();
  await expect(form.getByLabel("Amount a month (USD)")).toHaveValue("0");

  await form.getByLabel("Amount a month (USD)").fill("1");
  await form.getByRole("button", { name: "Set budget" }).click();
  await expect(
    page.getByRole("alert").filter({ hasText: "Budget of $1.00 a month set for staging" }),
  ).toBeVisible();
  const row = page.getByRole("table", { name: "Budgets" }).getByRole("row").filter({ hasText: "staging" });
  await expect(row).toBeVisible();

  // The accrual worker (every 2 s in playwright.config.ts) checks the new budget: reload until its alerts show.
  const alerts = page.getByRole("region", { name: "Budget alerts" });
  await expect(async () => {
    await page.reload();
    await expect(alerts).toContainText("The forecast of staging", { timeout: 1000 });
  }).toPass({ timeout: 30_000 });
  await expect(alerts.getByRole("row").filter({ hasText: "The forecast of staging" })).toHaveCount(2);
  await expect(alerts).toContainText(/reached 100 % of its budget: \$[\d,]+\.\d\d of \$1\.00/);
  // The same alerts reach Slack, through the connection's deliveries.
  await expect
    .poll(
      () =>
        webhook.requests.filter(
          (request) =>
            request.path === WEBHOOK_PATH &&
            request.body.includes("Budget alert: forecast 100 % of the budget of staging in "),
        ).length,
      { timeout: 30_000 },
    )
    .toBe(1);

  // Deleting asks first, and takes the budget's alerts with it.
  await waitForHydration(page);
  await row.getByRole("button", { name: "Delete the budget of staging" }).click();
  const dialog = page.getByRole("dialog", { name: "Delete budget" });
  await dialog.getByRole("button", { name: "Delete budget" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Budget of staging deleted" })).toBeVisible();
  await expect(page.getByRole("table", { name: "Budgets" })).toHaveCount(0);
  await expect(alerts).toContainText("No budget has been reached");
});

test("a member without billing.view has no Cost entry, and the cost pages send him to /401", async ({
  page,
}) => {
  await signIn(page, "bob@example.com", "/environments");
  const sidebar = page.getByRole("navigation", { name: "Main navigation" });
  await expect(sidebar.getByRole("link", { name: "Services" })).toBeVisible();
  await expect(sidebar.getByRole("link", { name: "Cost" })).toHaveCount(0);
  for (const path of ["/cost", "/cost/kubernetes", "/cost/budgets"]) {
    await page.goto(path);
    await expect(page).toHaveURL(/\/401$/);
  }
});
