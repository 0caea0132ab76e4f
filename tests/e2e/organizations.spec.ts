import { expect, test, type Page } from "@playwright/test";
import { waitForHydration } from "../setup/hydration";
import { openUserMenu, signIn, submitLogin } from "../setup/sign-in";

test("ada switches from Acme Corp to Globex: a toast, then Globex's workspace", async ({ page }) => {
  await signIn(page, "ada@example.com");
  await expect(page.getByTestId("current-organization")).toHaveText("Acme Corp");
  await openUserMenu(page);
  await page.getByRole("menuitem", { name: "Switch organization" }).click();

  const dialog = page.getByRole("dialog", { name: "Switch organization" });
  await expect(dialog.getByRole("button", { name: "Acme Corp" })).toBeDisabled();
  await dialog.getByRole("button", { name: "Globex" }).click();

  await expect(page.getByText("Switching to Globex")).toBeVisible();
  await expect(page.getByTestId("current-organization")).toHaveText("Globex");
  // Globex has no environments yet: its workspace starts by creating one.
  await expect(page).toHaveURL(/\/environments\/create$/);

  await page.reload();
  await expect(page.getByTestId("current-organization")).toHaveText("Globex");
});

test("the switch dialog closes without switching", async ({ page }) => {
  await signIn(page, "ada@example.com");
  await openUserMenu(page);
  await page.getByRole("menuitem", { name: "Switch organization" }).click();
  await page
    .getByRole("dialog", { name: "Switch organization" })
    .getByRole("button", { name: "Close" })
    .click();
  await expect(page.getByRole("dialog", { name: "Switch organization" })).toBeHidden();
  await expect(page.getByTestId("current-organization")).toHaveText("Acme Corp");
});

test("a member of one organization is not offered to switch", async ({ page }) => {
  await signIn(page, "bob@example.com");
  await openUserMenu(page);
  await expect(page.getByRole("menuitem", { name: "Logout" })).toBeVisible();
  await expect(page.getByRole("menuitem", { name: "Switch organization" })).toHaveCount(0);
});

test("a user without an organization creates one and lands in it", async ({ page }) => {
  await page.goto("/");
  await submitLogin(page, "dave@example.com");
  await expect(page).toHaveURL(/\/organizations\/create$/);

  await page.getByRole("button", { name: "Create organization" }).click();
  await expect(page.getByText("Organization name is a required field")).toBeVisible();

  await page.getByLabel("Organization name").fill("Dave's Lab");
  await page.getByLabel("Identifier").fill("Daves Lab");
  await page.getByRole("button", { name: "Create organization" }).click();
  await expect(page.getByText(/lowercase letters, digits and hyphens/).first()).toBeVisible();
  await expect(page.getByLabel("Organization name")).toHaveValue("Dave's Lab");

  await page.getByLabel("Identifier").fill(`daves-lab-${Date.now().toString(36)}`);
  await page.getByRole("button", { name: "Create organization" }).click();
  // A new organization starts with onboarding (decision 039).
  await expect(page).toHaveURL(/\/onboarding$/);
  await expect(page.getByTestId("current-organization")).toHaveText("Dave's Lab");
});

/** A new visitor signs up at the identity provider and lands on organization creation. */
async function signUpNewUser(page: Page) {
  const suffix = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  await page.goto("/auth/signup");
  await page.getByLabel("Name").fill("Katherine Johnson");
  await page.getByLabel("Email").fill(`katherine-${suffix}@example.com`);
  await page.getByLabel("Password").fill("correct horse battery staple");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(/\/organizations\/create$/);
  return suffix;
}

test("the identifier follows the organization name as it is typed, until the user writes their own", async ({
  page,
}) => {
  test.setTimeout(60_000);
  const suffix = await signUpNewUser(page);
  await waitForHydration(page);
  const name = page.getByLabel("Organization name");
  const identifier = page.getByLabel("Identifier");

  await name.pressSequentially("Crème Brûlée");
  await expect(identifier).toHaveValue("creme-brulee");
  await identifier.fill(`brulee-${suffix}`);
  await name.pressSequentially(" Ltd");
  await expect(identifier).toHaveValue(`brulee-${suffix}`);
  await identifier.fill("");
  await name.fill(`Crème Brûlée ${suffix}`);
  await expect(identifier).toHaveValue(`creme-brulee-${suffix}`);
  await page.getByRole("button", { name: "Create organization" }).click();
  await expect(page).toHaveURL(/\/onboarding$/);
  await expect(page.getByTestId("current-organization")).toHaveText(`Crème Brûlée ${suffix}`);
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("an identifier left empty is made from the organization name", async ({ page }) => {
    test.setTimeout(60_000);
    const suffix = await signUpNewUser(page);
    await page.getByLabel("Organization name").fill(`Zoë & Co ${suffix}`);
    await page.getByRole("button", { name: "Create organization" }).click();
    await expect(page).toHaveURL(/\/onboarding$/);
    await expect(page.getByTestId("current-organization")).toHaveText(`Zoë & Co ${suffix}`);
  });
});

test("a member of an organization awaiting approval sees the pending screen", async ({ page }) => {
  await page.goto("/environments");
  await submitLogin(page, "carol@example.com");
  await expect(page).toHaveURL(/\/pending-approval$/);
  await expect(page.getByRole("heading", { name: "You're in! Let's get you started" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Schedule a quick call" })).toHaveAttribute(
    "href",
    /^https:\/\//,
  );
  await expect(page.getByRole("alert")).toHaveCount(0);
});

test("an environment named in the URL is selected and remembered; an unknown one goes to the root", async ({
  page,
}) => {
  await signIn(page, "ada@example.com", "/env/staging");
  await expect(page.getByTestId("environment-title")).toHaveText("staging");
  await expect(page.getByTestId("environment-picker")).toHaveText("staging");

  await page.goto("/");
  await expect(page).toHaveURL(/\/env\/staging$/);

  await page.goto("/env/no-such-environment");
  await expect(page).toHaveURL(/\/env\/staging$/);

  // The picker is a menu: a click before hydration does nothing.
  await waitForHydration(page);
  await page.getByTestId("environment-picker").click();
  await page.getByRole("menuitem", { name: "production" }).click();
  await expect(page).toHaveURL(/\/env\/production$/);
});
