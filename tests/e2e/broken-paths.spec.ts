import { expect, test } from "@playwright/test";
import { platformUrl } from "../../playwright.config";
import { createEnvironment, uniqueEnvironmentName } from "../setup/environments";
import { waitForHydration } from "../setup/hydration";
import { signIn, signInThroughForm, submitLogin } from "../setup/sign-in";

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

test("a create page for a type that has none (applications have their own) is the 404 page, not the error page", async ({
  page,
}) => {
  await signIn(page, "ada@example.com");
  await page.goto("/env/production/services/application/create");
  await expect(page).toHaveURL(/\/404$/);
  await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
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

/** contract/environments.ts SECRET_MASK. */
const SECRET_MASK = "••••••••";

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("variables are added, revealed, edited, imported and deleted with plain forms", async ({
    page,
    browser,
  }) => {
    test.setTimeout(60_000);
    const environment = uniqueEnvironmentName("nojs");
    const setup = await browser.newPage({ javaScriptEnabled: true });
    await signIn(setup, "ada@example.com");
    await createEnvironment(setup, environment);
    await setup.close();

    await signIn(page, "ada@example.com", `/env/${environment}/variables`);
    const row = (name: string) => page.getByTestId(`variable-${name}`);

    await page.getByRole("button", { name: "Add variable" }).click();
    let form = page.getByRole("region", { name: "Add variable" });
    await form.getByLabel("Name").fill("NOJS_PLAIN");
    await form.getByLabel("Value").fill("one");
    await form.getByRole("button", { name: "Add variable" }).click();
    await expect(page).toHaveURL(new RegExp(`/env/${environment}/variables$`));
    await expect(row("NOJS_PLAIN").getByTestId("value-NOJS_PLAIN")).toHaveText("one");

    await page.getByRole("button", { name: "Add variable" }).click();
    form = page.getByRole("region", { name: "Add variable" });
    await form.getByLabel("Name").fill("NOJS_SECRET");
    await form.getByLabel("Value").fill("s3cret");
    await form.getByText("Secret", { exact: true }).click();
    await form.getByRole("button", { name: "Add variable" }).click();
    await expect(row("NOJS_SECRET").getByTestId("value-NOJS_SECRET")).toHaveText(SECRET_MASK);
    await row("NOJS_SECRET").getByRole("button", { name: "Reveal NOJS_SECRET" }).click();
    await expect(row("NOJS_SECRET").getByTestId("value-NOJS_SECRET")).toHaveText("s3cret");
    await row("NOJS_SECRET").getByRole("button", { name: "Hide NOJS_SECRET" }).click();
    await expect(row("NOJS_SECRET").getByTestId("value-NOJS_SECRET")).toHaveText(SECRET_MASK);

    // A refused value is explained in the form, which keeps what was typed.
    await row("NOJS_PLAIN").getByRole("button", { name: "Edit NOJS_PLAIN" }).click();
    form = page.getByRole("region", { name: "Edit NOJS_PLAIN" });
    await form.getByLabel("Name").fill("bad name");
    await form.getByRole("button", { name: "Save variable" }).click();
    form = page.getByRole("region", { name: "Edit NOJS_PLAIN" });
    await expect(form.getByText(/Name must start with a letter/)).toBeVisible();
    await form.getByLabel("Name").fill("NOJS_PLAIN");
    await form.getByLabel("Value").fill("two");
    await form.getByRole("button", { name: "Save variable" }).click();
    await expect(row("NOJS_PLAIN").getByTestId("value-NOJS_PLAIN")).toHaveText("two");

    await page.getByRole("button", { name: "Import .env file" }).click();
    form = page.getByRole("region", { name: "Import a .env file" });
    await form.getByLabel("Contents").fill("NOJS_PLAIN=three\nNOJS_NEW=1\nnot an assignment\n");
    await form.getByRole("button", { name: "Preview changes" }).click();
    form = page.getByRole("region", { name: "Import a .env file" });
    await expect(form.getByTestId("import-added-count")).toHaveText("1");
    await expect(form.getByTestId("import-changed-count")).toHaveText("1");
    await expect(form.getByTestId("skipped-line-3")).toHaveText("Line 3: Not a NAME=value line");
    await form.getByRole("button", { name: "Apply import" }).click();
    await expect(row("NOJS_PLAIN").getByTestId("value-NOJS_PLAIN")).toHaveText("three");
    await expect(row("NOJS_NEW").getByTestId("value-NOJS_NEW")).toHaveText("1");

    await row("NOJS_NEW").getByRole("button", { name: "Delete NOJS_NEW" }).click();
    await page
      .getByRole("region", { name: "Delete variable" })
      .getByRole("button", { name: "Delete variable" })
      .click();
    await expect(page).toHaveURL(new RegExp(`/env/${environment}/variables$`));
    await expect(row("NOJS_NEW")).toHaveCount(0);
  });

  test("the user menu switches organization and logs out", async ({ page }) => {
    await signInThroughForm(page, "ada@example.com");
    await expect(page.getByTestId("current-organization")).toHaveText("Acme Corp");
    await page.getByLabel("Account menu of Ada Lovelace").click();
    await page.getByRole("link", { name: "Switch organization" }).click();
    await expect(page.getByRole("heading", { name: "Switch organization" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Acme Corp" })).toBeDisabled();
    await page.getByRole("button", { name: "Globex" }).click();
    await expect(page.getByTestId("current-organization")).toHaveText("Globex");

    await page.getByLabel("Account menu of Ada Lovelace").click();
    await page.getByRole("button", { name: "Logout" }).click();
    await expect(page).toHaveURL(new RegExp(`^${platformUrl}/`));
    await expect(page.getByLabel("Password")).toBeVisible();
  });
});
