import { expect, test, type Page } from "@playwright/test";
import { createEnvironment, uniqueEnvironmentName } from "../setup/environments";
import { waitForHydration } from "../setup/hydration";
import { signIn } from "../setup/sign-in";

test.setTimeout(120_000);

/** Saves a draft of `serviceType` named `name` (types whose defaults are complete). */
async function saveDraft(page: Page, environment: string, serviceType: string, name: string) {
  await page.goto(`/env/${environment}/services/${serviceType}/create`);
  await waitForHydration(page);
  await page.getByRole("textbox", { name: "Name", exact: true }).fill(name);
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByTestId("service-title")).toHaveText(name);
}

function servicesTable(page: Page) {
  return page.getByRole("table", { name: "Services" });
}

test("an environment without services offers to create the first one", async ({ page }) => {
  const environment = uniqueEnvironmentName("svc-empty");
  await signIn(page, "ada@example.com");
  await createEnvironment(page, environment);
  await page.goto(`/env/${environment}/services`);
  await waitForHydration(page);
  await expect(page.getByRole("heading", { name: "No services yet" })).toBeVisible();

  await page.getByRole("button", { name: "Create your first service" }).click();
  const menu = page.getByRole("menu");
  // An application first, then the ten infrastructure types.
  await expect(menu.getByRole("menuitem")).toHaveCount(11);
  await expect(menu.getByRole("menuitem").first()).toHaveText(/Application/);
  await menu.getByRole("menuitem", { name: "Queue" }).click();
  await expect(page).toHaveURL(new RegExp(`/env/${environment}/services/queue/create$`));

  // The applications page explains what goes there.
  await page.goto(`/env/${environment}/applications`);
  await expect(page.getByRole("heading", { name: "No applications yet" })).toBeVisible();
});

test("services are listed, filtered by type and stage, and searched", async ({ page }) => {
  const environment = uniqueEnvironmentName("svc-list");
  await signIn(page, "ada@example.com");
  await createEnvironment(page, environment);
  await saveDraft(page, environment, "queue", "billing-jobs");
  await saveDraft(page, environment, "cache", "billing-cache");
  await saveDraft(page, environment, "queue", "mail-jobs");

  await page.goto(`/env/${environment}/services`);
  await waitForHydration(page);
  const table = servicesTable(page);
  await expect(table.getByRole("row")).toHaveCount(4);
  const row = table.getByRole("row").filter({ hasText: "billing-cache" });
  await expect(row).toContainText("Cache");
  await expect(row).toContainText("Draft");
  await expect(page.getByText("3 services")).toBeVisible();

  await page.getByLabel("Type").selectOption({ label: "Queue" });
  await expect(page).toHaveURL(/serviceType=queue/);
  await expect(table.getByRole("row")).toHaveCount(3);
  await expect(table).not.toContainText("billing-cache");

  await page.getByLabel("Search").fill("mail");
  await expect(page).toHaveURL(/text=mail/);
  await expect(table.getByRole("row")).toHaveCount(2);
  await expect(table.getByRole("link", { name: "mail-jobs" })).toBeVisible();

  await page.getByLabel("Search").fill("nothing-like-this");
  await expect(page.getByRole("heading", { name: "No services match" })).toBeVisible();
  await page.getByRole("link", { name: "Clear filters" }).click();
  await expect(servicesTable(page).getByRole("row")).toHaveCount(4);

  await page.getByLabel("Stage").selectOption({ label: "Completed" });
  await expect(page.getByRole("heading", { name: "No services match" })).toBeVisible();

  // The link in the table opens the service.
  await page.goto(`/env/${environment}/services`);
  await servicesTable(page).getByRole("link", { name: "billing-jobs" }).click();
  await expect(page.getByTestId("service-title")).toHaveText("billing-jobs");

  // /services goes to the current environment's list and keeps the query.
  await page.goto("/services?serviceType=cache");
  await expect(page).toHaveURL(new RegExp(`/env/${environment}/services\\?serviceType=cache$`));
  await expect(servicesTable(page).getByRole("row")).toHaveCount(2);
});

test("the list works without JavaScript", async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await signIn(page, "ada@example.com", "/env/production/services");
  await expect(page.getByRole("heading", { name: "Services", level: 2 })).toBeVisible();
  await page.getByLabel("Search").fill("no-service-is-called-this");
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(/text=no-service-is-called-this/);
  await expect(page.getByRole("heading", { name: "No services match" })).toBeVisible();
  await context.close();
});

test("stage badges are whole and every endpoint can be read, on a desktop and a tablet", async ({ page }) => {
  await signIn(page, "ada@example.com", "/env/production/services");
  const table = servicesTable(page);
  for (const size of [
    { width: 1440, height: 900 },
    { width: 768, height: 1024 },
  ]) {
    await page.setViewportSize(size);
    await page.goto("/env/production/services");
    await waitForHydration(page);
    const badges = table.locator(".stage-badge span");
    await expect(badges.first()).toBeVisible();
    for (const badge of await badges.all()) {
      const { text, whole } = await badge.evaluate((label) => ({
        text: label.textContent,
        whole: label.scrollWidth <= label.clientWidth,
      }));
      expect(whole, `the badge "${text}" at ${size.width} px`).toBe(true);
    }
    const endpoints = table.locator(".services-table-endpoint");
    await expect(endpoints.first()).toBeVisible();
    for (const endpoint of await endpoints.all()) {
      // Reachable: scrolled to (the table scrolls sideways on a narrow screen), it shows whole.
      await endpoint.scrollIntoViewIfNeeded();
      // Whole, but for a fraction of a pixel of rounding at a tablet's width.
      await expect(endpoint, `an endpoint at ${size.width} px`).toBeInViewport({ ratio: 0.99 });
    }
  }
});
