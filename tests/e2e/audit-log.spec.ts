import { readFile } from "node:fs/promises";
import { expect, test, type Page } from "@playwright/test";
import { chooseOption, openEnvironment } from "../setup/environments";
import { waitForHydration } from "../setup/hydration";
import { signIn } from "../setup/sign-in";

test.setTimeout(60_000);

function eventRow(page: Page, target: string) {
  return page.getByRole("table", { name: "Audit events" }).getByRole("row").filter({ hasText: target });
}

test("a change and a refused change in staging show in the audit log with their outcomes, and in its CSV", async ({
  page,
  browser,
}) => {
  const suffix = Date.now().toString(36).toUpperCase();
  const adaVariable = `AUDIT_ADA_${suffix}`;
  const bobVariable = `AUDIT_BOB_${suffix}`;

  await signIn(page, "ada@example.com");
  await openEnvironment(page, "staging", "variables");
  await page.getByRole("button", { name: "Add variable" }).click();
  const dialog = page.getByRole("dialog", { name: "Add variable" });
  await dialog.getByLabel("Name").fill(adaVariable);
  await dialog.getByLabel("Value").fill("ada-secret-value");
  await dialog.getByText("Secret", { exact: true }).click();
  await dialog.getByRole("button", { name: "Add variable" }).click();
  await expect(page.getByRole("alert").filter({ hasText: `Variable ${adaVariable} added` })).toBeVisible();

  // Bob is read-only: the screens will not offer him the button, so he sends the form himself, as a crafted
  // request would; the platform refuses it and the refusal is recorded.
  const bobContext = await browser.newContext();
  const bobPage = await bobContext.newPage();
  await signIn(bobPage, "bob@example.com");
  await openEnvironment(bobPage, "staging", "variables");
  const bobStatus = await bobPage.evaluate(async (name) => {
    const form = new FormData();
    form.set("intent", "create");
    form.set("name", name);
    form.set("value", "bob-value");
    const response = await fetch("/env/staging/variables", { method: "POST", body: form });
    return response.status;
  }, bobVariable);
  expect(bobStatus).toBeGreaterThanOrEqual(400);
  // Nor may he read the log.
  await bobPage.goto("/settings/audit-log");
  await expect(bobPage).toHaveURL(/\/401$/);
  await bobContext.close();

  await page.goto("/settings/audit-log");
  await waitForHydration(page);
  await expect(page.getByRole("heading", { name: "Audit log" })).toBeVisible();
  await expect(page.getByLabel("From (UTC)")).toBeVisible();
  await chooseOption(page, "Action", "environment-variables.create", { type: "variables.create" });
  await chooseOption(page, "Environment", "staging");
  await page.getByRole("button", { name: "Apply filters" }).click();
  await expect(page).toHaveURL(/action=environment-variables\.create/);

  await expect(eventRow(page, adaVariable)).toContainText("ada@example.com");
  await expect(eventRow(page, adaVariable)).toContainText("Allowed · 201");
  await expect(eventRow(page, adaVariable)).toContainText("staging");
  await expect(eventRow(page, bobVariable)).toContainText("bob@example.com");
  await expect(eventRow(page, bobVariable)).toContainText("Refused · 403");

  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("link", { name: "Export CSV" }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^audit-log-.*\.csv$/);
  const csv = await readFile(await download.path(), "utf8");
  const lines = csv.split("\r\n");
  expect(lines[0]).toBe(
    "at,userId,userEmail,environmentId,environmentName,action,target,summary,requestId,address,userAgent,status,tokenName,serviceAccount",
  );
  const adaLine = lines.find((line) => line.includes(adaVariable));
  const bobLine = lines.find((line) => line.includes(bobVariable));
  expect(adaLine).toMatch(/,ada@example\.com,.*,staging,environment-variables\.create,.*,201,,$/);
  expect(bobLine).toMatch(/,bob@example\.com,.*,staging,environment-variables\.create,.*,403,,$/);
  expect(adaLine).toContain(`""secret"":true`);
  expect(csv).not.toContain("ada-secret-value");
  expect(lines.filter((line) => line && !line.includes("environment-variables.create"))).toHaveLength(1);
});
