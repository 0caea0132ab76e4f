import { expect, test } from "@playwright/test";
import { platformUrl } from "../../playwright.config";
import { uniqueEnvironmentName } from "../setup/environments";
import { waitForHydration } from "../setup/hydration";
import { signIn, submitLogin } from "../setup/sign-in";

// Paths a new user walks into (issue 11, section 7): each leads somewhere useful instead of an error or a blank.

test("a member of an organization awaiting approval who signs in at / sees the pending screen", async ({
  page,
}) => {
  await page.goto("/");
  await submitLogin(page, "carol@example.com");
  await expect(page).toHaveURL(/\/pending-approval$/);
  await expect(page.getByRole("heading", { name: "You're in! Let's get you started" })).toBeVisible();

  await page.goto("/");
  await expect(page).toHaveURL(/\/pending-approval$/);
  await expect(page.getByRole("heading", { name: "You're in! Let's get you started" })).toBeVisible();
});

test("/services and /applications sub-paths lead to the current environment's pages", async ({ page }) => {
  await signIn(page, "ada@example.com", "/env/production/services");
  const firstService = page.getByRole("table").getByRole("link").first();
  const href = await firstService.getAttribute("href");
  const serviceId = href?.match(/\/services\/([^/?]+)/)?.[1];
  expect(serviceId).toBeTruthy();

  await page.goto(`/services/${serviceId}?tab=history`);
  await expect(page).toHaveURL(new RegExp(`/env/production/services/${serviceId}\\?tab=history$`));
  await expect(page.getByRole("tab", { name: "History", exact: true })).toHaveAttribute(
    "aria-selected",
    "true",
  );

  await page.goto("/services/database/create");
  await expect(page).toHaveURL(/\/env\/production\/services\/database\/create$/);
  await expect(page.getByRole("button", { name: "Create", exact: true })).toBeVisible();

  await page.goto("/applications/list");
  await expect(page).toHaveURL(/\/env\/production\/applications\/list$/);
});

test("/organizations opens organization creation", async ({ page }) => {
  await signIn(page, "ada@example.com");
  await page.goto("/organizations");
  await expect(page).toHaveURL(/\/organizations\/create$/);
  await expect(page.getByRole("heading", { name: "Create your organization" })).toBeVisible();
});

test("/favicon.ico is an icon, and pages link one", async ({ page }) => {
  const favicon = await page.request.get("/favicon.ico", { maxRedirects: 0 });
  expect(favicon.status()).toBe(200);
  expect(favicon.headers()["content-type"]).toMatch(/^image\//);
  await page.goto("/404");
  await expect(page.locator('head link[rel="icon"]').first()).toHaveAttribute("href", /^\/favicon\./);
});

test("a user without an organization sees who is signed in and can log out while creating one", async ({
  page,
}) => {
  await page.goto("/");
  await submitLogin(page, "dave@example.com");
  await expect(page).toHaveURL(/\/organizations\/create$/);
  await expect(page.getByTestId("signed-in-as")).toContainText("dave@example.com");
  await page.getByRole("button", { name: "Logout" }).click();
  await expect(page).toHaveURL(new RegExp(`^${platformUrl}/`));
  await expect(page.getByLabel("Password")).toBeVisible();
});

test("a new environment opens once created, selected in the switcher", async ({ page }) => {
  const name = uniqueEnvironmentName("opened");
  await signIn(page, "ada@example.com", "/environments/create");
  await waitForHydration(page);
  await page.getByLabel("Name").fill(name);
  await page.getByRole("button", { name: "Create environment" }).click();
  await expect(page).toHaveURL(new RegExp(`/env/${name}$`));
  await expect(page.getByTestId("environment-title")).toHaveText(name);
  await expect(page.getByTestId("environment-picker")).toHaveText(name);
  await expect(page.getByRole("alert").filter({ hasText: `Environment ${name} created` })).toBeVisible();
});
