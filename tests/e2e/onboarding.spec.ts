import { expect, test, type Page } from "@playwright/test";
import { platformUrl } from "../../playwright.config";
import { waitForHydration } from "../setup/hydration";

const PASSWORD = "correct horse battery staple";

function uniqueSuffix(): string {
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`;
}

/** A visitor signs up at the identity provider and creates an organization through the form. */
async function signUpAndCreateOrganization(page: Page, displayName: string) {
  const suffix = uniqueSuffix();
  await page.goto("/");
  await expect(page).toHaveURL(new RegExp(`^${platformUrl}/`));
  await page.getByRole("link", { name: "Create an account" }).click();
  await page.getByLabel("Name").fill("Margaret Hamilton");
  await page.getByLabel("Email").fill(`margaret-${suffix}@example.com`);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(/\/organizations\/create$/);

  await page.getByLabel("Organization name").fill(displayName);
  await page.getByLabel("Identifier").fill(`apollo-${suffix}`);
  await page.getByRole("button", { name: "Create organization" }).click();
}

/** Fails the next client navigation's data request to `pathPattern`, so the error page shows; then stops failing. */
async function showErrorPage(page: Page, linkName: string, dataRequest: RegExp) {
  await waitForHydration(page);
  await page.route(dataRequest, (route) =>
    route.fulfill({ status: 500, contentType: "text/plain", body: "down" }),
  );
  await page.getByRole("link", { name: linkName, exact: true }).first().click();
  await expect(page.getByRole("heading", { name: "Oops! Something went wrong" })).toBeVisible();
  await page.unroute(dataRequest);
}

async function expectTicked(page: Page, ticked: string[]) {
  for (const step of ["cloud-account", "environment", "application", "team", "notifications"]) {
    await expect(page.getByTestId(`checklist-${step}`)).toHaveAttribute(
      "data-done",
      String(ticked.includes(step)),
    );
  }
  await expect(page.getByTestId("onboarding-progress")).toHaveText(`${ticked.length} of 5 steps done`);
}

test("a new organization is walked through onboarding; home and 'Take me home' open the overview until Finish", async ({
  page,
}) => {
  test.setTimeout(90_000);
  await signUpAndCreateOrganization(page, "Apollo Guidance");

  // The new organization lands in the walk-through, on its first step.
  await expect(page).toHaveURL(/\/onboarding$/);
  await expect(page.getByRole("heading", { name: "Set up Apollo Guidance" })).toBeVisible();
  const step = page.getByTestId("onboarding-step");
  await expect(step.getByRole("heading", { name: "Connect a cloud account" })).toBeVisible();
  await expect(step.getByRole("link", { name: "Connect a cloud account" })).toHaveAttribute(
    "href",
    "/settings/connections/create/cloud-provider?returnTo=%2Fonboarding%3Fstep%3Denvironment",
  );

  // Skip the cloud account; create the environment through the step, in the real form, and come back.
  await step.getByRole("link", { name: "Skip this step" }).click();
  await expect(page).toHaveURL(/\/onboarding\?step=environment$/);
  await expect(step.getByRole("link", { name: "Fastboot a starter stack" })).toHaveAttribute(
    "href",
    /^\/fastboot\/configure\?returnTo=/,
  );
  await step.getByRole("link", { name: "Create an environment" }).click();
  await expect(page).toHaveURL(/\/environments\/create\?returnTo=/);
  await expect(
    page.getByTestId("onboarding-banner").getByRole("link", { name: "Back to onboarding" }),
  ).toHaveAttribute("href", "/onboarding?step=application");
  await waitForHydration(page);
  await page.getByLabel("Name").fill("staging");
  await page.getByRole("button", { name: "Create environment" }).click();

  await expect(page).toHaveURL(/\/onboarding\?step=application$/);
  await expect(page.getByRole("alert").filter({ hasText: "Environment staging created" })).toBeVisible();
  await expect(step.getByRole("heading", { name: "Deploy your first application" })).toBeVisible();
  const stepsNav = page.getByRole("navigation", { name: "Onboarding steps" });
  await expect(stepsNav.getByRole("link", { name: "Create an environment, done" })).toBeVisible();
  await expect(stepsNav.getByRole("link", { name: "Connect a cloud account", exact: true })).toBeVisible();
  await expect(step.getByRole("link", { name: "Deploy an application" })).toHaveAttribute(
    "href",
    "/env/staging/applications/create",
  );

  // The checklist ticks exactly what was really done: the environment, not the skipped cloud account.
  await page.getByRole("link", { name: "See the checklist" }).click();
  await expect(page).toHaveURL(/\/onboarding\/overview$/);
  await expectTicked(page, ["environment"]);

  // While onboarding is in progress, home and the error page's 'Take me home' open the overview.
  await page.goto("/");
  await expect(page).toHaveURL(/\/onboarding\/overview$/);
  await showErrorPage(page, "Environments", /\/environments\.data/);
  await page.getByRole("link", { name: "Take me home" }).click();
  await expect(page).toHaveURL(/\/onboarding\/overview$/);
  await expectTicked(page, ["environment"]);

  // Finish ends it: home is the environment again, and so is 'Take me home'.
  await waitForHydration(page);
  await page.getByRole("button", { name: "Finish onboarding" }).click();
  await expect(page).toHaveURL(/\/env\/staging$/);
  await expect(page.getByRole("alert").filter({ hasText: "Onboarding finished" })).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem("persist:onboarding-in-progress"))).toBeNull();

  await showErrorPage(page, "Environments", /\/environments\.data/);
  await page.getByRole("link", { name: "Take me home" }).click();
  await expect(page).toHaveURL(/\/env\/staging$/);
  await expect(page.getByTestId("environment-title")).toHaveText("staging");

  // The overview stays readable and says onboarding has ended, with no way to end it again.
  await page.goto("/onboarding/overview");
  await expect(page.getByText("Onboarding finished", { exact: true })).toBeVisible();
  await expect(page.getByRole("button", { name: "Finish onboarding" })).toHaveCount(0);
  await page.goto("/onboarding");
  await expect(page).toHaveURL(/\/onboarding\/overview$/);
});

test("dismissing onboarding ends it for the organization: another session goes home to the environment form", async ({
  page,
  browser,
}) => {
  test.setTimeout(90_000);
  await signUpAndCreateOrganization(page, "Gemini Labs");
  await expect(page).toHaveURL(/\/onboarding$/);
  await page.getByRole("link", { name: "See the checklist" }).click();
  await expectTicked(page, []);

  // A second device of the same user still has its mirror saying onboarding is in progress.
  const storage = await page.context().storageState();
  const other = await browser.newContext({ storageState: storage });
  const otherPage = await other.newPage();
  await otherPage.goto("/");
  await expect(otherPage).toHaveURL(/\/onboarding\/overview$/);

  await waitForHydration(page);
  await page.getByRole("button", { name: "Dismiss" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Onboarding dismissed" })).toBeVisible();
  // No environment yet: home is creating one.
  await expect(page).toHaveURL(/\/environments\/create$/);
  await expect(page.getByTestId("onboarding-banner")).toHaveCount(0);

  // The platform's state wins over the other device's mirror: home is no longer the overview.
  await otherPage.goto("/");
  await expect(otherPage).toHaveURL(/\/environments\/create$/);
  await other.close();
});

test("a new organization fastboots a web application with PostgreSQL from onboarding and the checklist ticks it", async ({
  page,
}) => {
  // The stack's three services deploy one after the other (scaled by ENGINE_TIME_SCALE): a slow machine needs time.
  test.setTimeout(240_000);
  await signUpAndCreateOrganization(page, "Mercury Works");
  await expect(page).toHaveURL(/\/onboarding$/);
  const step = page.getByTestId("onboarding-step");
  await step.getByRole("link", { name: "Skip this step" }).click();
  await expect(page).toHaveURL(/\/onboarding\?step=environment$/);

  // Fastboot instead of the plain form.
  await step.getByRole("link", { name: "Fastboot a starter stack" }).click();
  await expect(page).toHaveURL(/\/fastboot\/configure\?returnTo=/);
  await waitForHydration(page);
  await page.getByRole("radio", { name: "Web application with PostgreSQL" }).check();
  await page.getByRole("textbox", { name: "Environment name" }).fill("production");
  await page.getByRole("button", { name: "Create and launch" }).click();
  await expect(page).toHaveURL(/\/fastboot\/[0-9a-f-]{36}$/);

  // Watched to completion: the application's URL, and its overview shows it.
  await expect(page.getByTestId("fastboot-done")).toBeVisible({ timeout: 200_000 });
  const url = await page
    .getByTestId("fastboot-done")
    .getByRole("link", { name: /^https:\/\// })
    .textContent();
  expect(url).toMatch(/^https:\/\/.+\/web$/);
  await page.getByRole("link", { name: "Open web's overview" }).click();
  await expect(page.getByTestId("service-title")).toHaveText("web");
  await expect(page.getByTestId("service-endpoint")).toContainText(url ?? "missing");

  // Back in onboarding, the checklist ticks the environment and the deployed application, nothing else.
  await page.getByTestId("onboarding-banner").getByRole("link", { name: "Back to onboarding" }).click();
  await page.goto("/onboarding/overview");
  await expectTicked(page, ["environment", "application"]);

  // Onboarding is still in progress: home is the overview.
  await page.goto("/");
  await expect(page).toHaveURL(/\/onboarding\/overview$/);
});
