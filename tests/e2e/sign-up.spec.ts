import { expect, test, type Page } from "@playwright/test";
import { platformUrl } from "../../playwright.config";

const PASSWORD = "correct horse battery staple";

/** An address no other test (or earlier run against the same data dir) has signed up with. */
function uniqueEmail(name: string): string {
  return `${name}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}@example.com`;
}

async function fillSignUp(
  page: Page,
  { name, email, password }: { name: string; email: string; password: string },
) {
  await page.getByLabel("Name").fill(name);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Create account" }).click();
}

test("a visitor creates an account from the login page and lands signed in on organization creation", async ({
  page,
}) => {
  await page.goto("/");
  await expect(page).toHaveURL(new RegExp(`^${platformUrl}/`));
  await page.getByRole("link", { name: "Create an account" }).click();
  await expect(
    page.getByText("12 to 128 characters, not containing the part of your email before the @."),
  ).toBeVisible();

  const email = uniqueEmail("grace");
  await fillSignUp(page, { name: "Grace Hopper", email, password: PASSWORD });

  await expect(page).toHaveURL(/\/organizations\/create$/);
  await expect(page.getByRole("heading", { name: "Create your organization" })).toBeVisible();
  await expect(page.getByTestId("signed-in-as")).toHaveText(`Signed in as Grace Hopper (${email})`);
});

test("/auth/signup opens the sign-up page; a too-short password keeps name and email, then the visitor lands where they were going", async ({
  page,
}) => {
  await page.goto("/auth/signup?returnTo=/cloud-connection");
  await expect(page).toHaveURL(new RegExp(`^${platformUrl}/`));

  const email = uniqueEmail("linus");
  await fillSignUp(page, { name: "Linus Torvalds", email, password: "too-short" });
  await expect(page.getByText("Password must be at least 12 characters; this one has 9.")).toBeVisible();
  await expect(page.getByLabel("Name")).toHaveValue("Linus Torvalds");
  await expect(page.getByLabel("Email")).toHaveValue(email);
  await expect(page.getByLabel("Password")).toHaveValue("");
  await expect(page.getByLabel("Password")).toHaveAttribute("aria-invalid", "true");

  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(/\/cloud-connection$/);
  await expect(page.getByRole("heading", { name: "Connect your AWS account" })).toBeVisible();
});
