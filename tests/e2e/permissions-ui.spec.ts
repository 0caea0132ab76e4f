import { expect, test, type Locator, type Page } from "@playwright/test";
import { waitForHydration } from "../setup/hydration";
import { signIn } from "../setup/sign-in";

const RESTRICTED = "You have restricted access. Please contact admin.";

/** A control the user may not use: disabled to assistive technology and to Playwright, yet still focusable. */
async function expectRestricted(control: Locator) {
  await expect(control).toBeVisible();
  await expect(control).toHaveAttribute("aria-disabled", "true");
  await expect(control).toBeDisabled();
}

async function expectUsable(control: Locator) {
  await expect(control).toBeVisible();
  await expect(control).toBeEnabled();
  await expect(control).not.toHaveAttribute("aria-disabled", "true");
}

async function open(page: Page, path: string) {
  await page.goto(path);
  await waitForHydration(page);
}

/** Opens Acme's production database's details at `tab`, from the services list. */
async function openDatabase(page: Page, tab: string) {
  await open(page, "/env/production/services");
  await page.getByRole("link", { name: "orders-db" }).click();
  await expect(page.getByTestId("service-title")).toHaveText("orders-db");
  await open(page, `${new URL(page.url()).pathname}?tab=${tab}`);
}

test("a read-only member sees no enabled change button, cannot reveal a secret, and is sent to /401 from writers' pages", async ({
  page,
}) => {
  test.setTimeout(90_000);
  await signIn(page, "bob@example.com", "/environments");
  await waitForHydration(page);
  const create = page.getByRole("button", { name: "Create environment" });
  await expectRestricted(create);
  await create.focus();
  await expect(page.getByRole("tooltip")).toHaveText(RESTRICTED);
  await create.click({ force: true });
  await expect(page).toHaveURL(/\/environments$/);

  await open(page, "/env/production");
  await expectRestricted(page.getByRole("button", { name: "Clone" }));
  await expectRestricted(page.getByRole("button", { name: "Delete environment" }));
  await page.getByRole("button", { name: "Delete environment" }).click({ force: true });
  await expect(page.getByRole("dialog")).toHaveCount(0);

  await open(page, "/env/production/variables");
  await expectRestricted(page.getByRole("button", { name: "Add variable" }));
  await expectRestricted(page.getByRole("button", { name: "Import .env file" }));
  const variables = page.getByRole("table", { name: "Variables" });
  await expect(variables.getByRole("button", { name: /^(Edit|Delete) / })).toHaveCount(0);
  const reveal = page.getByRole("button", { name: "Reveal DB_PASSWORD" });
  await expectRestricted(reveal);
  await reveal.click({ force: true });
  await expect(page.getByTestId("value-DB_PASSWORD")).toHaveText("••••••••");

  await open(page, "/env/production/config");
  // The configuration and the preview setting are two forms, each saying why it is read-only.
  await expect(page.locator("#environment-config").getByTestId("restricted-note")).toHaveText(RESTRICTED);
  await expect(page.getByLabel("Description")).toBeDisabled();
  await expectRestricted(page.getByRole("button", { name: "Save configuration" }));
  await expect(page.locator("#preview-settings").getByTestId("restricted-note")).toHaveText(RESTRICTED);
  await expectRestricted(page.getByRole("button", { name: "Save preview setting" }));

  await open(page, "/env/production/addons");
  await expectRestricted(page.getByRole("button", { name: "Save add-ons" }));

  await open(page, "/env/production/services");
  await expectRestricted(page.getByRole("button", { name: "Create service" }));

  await openDatabase(page, "overview");
  await expectRestricted(page.getByRole("button", { name: /^(Relaunch|Deploy changes)$/ }));
  await expectRestricted(page.getByRole("button", { name: "Delete", exact: true }));

  await openDatabase(page, "settings");
  await expect(page.getByTestId("restricted-note")).toHaveText(RESTRICTED);
  await expectRestricted(page.getByRole("button", { name: "Save settings" }));

  await openDatabase(page, "config");
  await expectRestricted(page.getByRole("button", { name: "Save draft" }));
  await expectRestricted(page.getByRole("button", { name: "Save and deploy" }));

  await openDatabase(page, "attributes");
  const revealAttribute = page.getByRole("button", { name: /^Reveal / }).first();
  await expectRestricted(revealAttribute);

  await page.goto("/environments/create");
  await expect(page).toHaveURL(/\/401$/);
  await expect(page.getByText(RESTRICTED)).toBeVisible();
  await page.goto("/env/production/services/queue/create");
  await expect(page).toHaveURL(/\/401$/);
});

test("an admin finds every change button enabled and the writers' pages open", async ({ page }) => {
  test.setTimeout(90_000);
  await signIn(page, "ada@example.com", "/environments");
  await waitForHydration(page);
  await expect(page.getByTestId("current-organization")).toHaveText("Acme Corp");
  await expectUsable(page.getByRole("link", { name: "Create environment" }));

  await open(page, "/env/production");
  await expectUsable(page.getByRole("link", { name: "Clone" }));
  await expectUsable(page.getByRole("button", { name: "Delete environment" }));

  await open(page, "/env/production/variables");
  await expectUsable(page.getByRole("button", { name: "Add variable" }));
  await expectUsable(page.getByRole("button", { name: "Import .env file" }));
  await expectUsable(page.getByRole("button", { name: "Edit DB_PASSWORD" }));
  await page.getByRole("button", { name: "Reveal DB_PASSWORD" }).click();
  await expect(page.getByTestId("value-DB_PASSWORD")).toHaveText("acme-production-db-password");

  await open(page, "/env/production/config");
  await expect(page.getByTestId("restricted-note")).toHaveCount(0);
  await expectUsable(page.getByRole("button", { name: "Save configuration" }));
  await expectUsable(page.getByRole("button", { name: "Save preview setting" }));

  await open(page, "/env/production/services");
  await expectUsable(page.getByRole("button", { name: "Create service" }));

  await openDatabase(page, "overview");
  await expectUsable(page.getByRole("button", { name: "Delete", exact: true }));
  await openDatabase(page, "settings");
  await expectUsable(page.getByRole("button", { name: "Save settings" }));

  await page.goto("/environments/create");
  await expect(page).toHaveURL(/\/environments\/create$/);
  await expect(page.getByRole("button", { name: "Create environment" })).toBeVisible();
});

test("the sidebar's Settings and the user menu's organization lead to the settings", async ({ page }) => {
  await signIn(page, "bob@example.com", "/environments");
  await expect(page.getByTestId("sidebar").getByRole("link", { name: "Settings" })).toHaveAttribute(
    "href",
    "/settings/users",
  );
  await waitForHydration(page);
  await page.getByRole("button", { name: /^Account menu of / }).click();
  await expect(page.getByRole("menuitem", { name: "Acme Corp" })).toHaveAttribute(
    "href",
    "/settings/users/organization-overview",
  );
});
