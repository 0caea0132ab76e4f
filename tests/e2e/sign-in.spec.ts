import { expect, test } from "@playwright/test";
import { platformUrl } from "../../playwright.config";
import { openUserMenu, signIn, signInThroughForm, submitLogin } from "../setup/sign-in";

test("a visitor is sent to the identity provider and lands in Acme Corp with its environments", async ({
  page,
}) => {
  await page.goto("/");
  await expect(page).toHaveURL(new RegExp(`^${platformUrl}/`));
  await submitLogin(page, "ada@example.com");

  await expect(page).toHaveURL(/\/env\/production$/);
  await expect(page.getByTestId("user-name")).toHaveText("Ada Lovelace");
  await expect(page.getByTestId("current-organization")).toHaveText("Acme Corp");
  await expect(page.getByTestId("environment-picker")).toHaveText("production");
  await page.getByRole("link", { name: "Environments", exact: true }).click();
  const environments = page.getByRole("table", { name: "Environments" });
  await expect(environments.getByRole("cell", { name: "production", exact: true })).toBeVisible();
  await expect(environments.getByRole("cell", { name: "staging", exact: true })).toBeVisible();
});

test("a wrong password keeps the visitor on the login page with an error", async ({ page }) => {
  await page.goto("/");
  await submitLogin(page, "ada@example.com", "not-the-password");
  await expect(page.getByText("Wrong email or password.")).toBeVisible();
  await expect(page.getByLabel("Email")).toHaveValue("ada@example.com");
  await expect(page).toHaveURL(new RegExp(`^${platformUrl}/`));
});

test("the address asked for before sign-in is restored afterwards", async ({ page }) => {
  await page.goto("/environments/create?from=e2e");
  await submitLogin(page, "ada@example.com");
  await expect(page).toHaveURL(/\/environments\/create\?from=e2e$/);
  await expect(page.getByRole("heading", { name: "Create environment" })).toBeVisible();
});

for (const unsafe of ["https://evil.example/steal", "//evil.example/steal", "/\\evil.example"]) {
  test(`an unsafe return address (${unsafe}) is ignored`, async ({ page }) => {
    await page.goto(`/auth/login?returnTo=${encodeURIComponent(unsafe)}`);
    await submitLogin(page, "ada@example.com");
    await expect(page).toHaveURL(/localhost:\d+\/env\/production$/);
  });
}

test("a sign-in return with a state the app did not issue is refused with 'Invalid state'", async ({
  page,
}) => {
  await page.goto("/auth?code=forged&state=forged");
  await expect(page.getByRole("alert")).toHaveText("Invalid state");
});

test("an unknown path goes to /404", async ({ page }) => {
  await page.goto("/some-unknown-path");
  await expect(page).toHaveURL(/\/404$/);
  await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
});

test("logout ends both sessions: the next visit asks for the password again", async ({ page }) => {
  await signInThroughForm(page, "ada@example.com");
  await openUserMenu(page);
  await page.getByRole("menuitem", { name: "Logout" }).click();
  await expect(page).toHaveURL(new RegExp(`^${platformUrl}/`));
  await expect(page.getByLabel("Password")).toBeVisible();

  await page.goto("/environments");
  await expect(page).toHaveURL(new RegExp(`^${platformUrl}/`));
  await expect(page.getByLabel("Password")).toBeVisible();
});

test("/auth/logout asks before signing out", async ({ page }) => {
  await signInThroughForm(page, "bob@example.com");
  await page.goto("/auth/logout");
  await page.getByRole("button", { name: "Logout" }).click();
  await expect(page.getByLabel("Password")).toBeVisible();
});

test("a read-only member sees Acme's environments but cannot create one", async ({ page }) => {
  await signIn(page, "bob@example.com", "/environments");
  await expect(page.getByRole("link", { name: "production" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Create environment" })).toBeDisabled();
  // The create page is only for those who may create: its address leads to the forbidden page.
  await page.goto("/environments/create");
  await expect(page).toHaveURL(/\/401$/);
  await expect(page.getByText("You have restricted access. Please contact admin.")).toBeVisible();
});
