import { expect, test, type Page } from "@playwright/test";
import { platformUrl } from "../../playwright.config";
import { startTestServer, type TestServer } from "../../platform/testing/provider-servers";
import { createAccessKey } from "../setup/aws-connection";
import { waitForHydration } from "../setup/hydration";
import { MOTO_ACCOUNT_ID } from "../setup/moto-server";

/**
 * Issue 25's done-when: a fresh walk from sign-up to a finished onboarding, on the screens only (no API set-up: this
 * test is the walk). The cloud account is moto's (the e2e AWS), Slack is a test receiver on loopback. Selectors are
 * by role and label, so the identity provider's and the invitation pages' styling can change under them.
 */

// An application deploys on the simulated cloud at ENGINE_TIME_SCALE: the walk takes about half a minute.
test.setTimeout(120_000);

const PASSWORD = "correct horse battery staple";
const WEBHOOK_PATH = "/services/T0FIRST/B0HOUR/first-hour-hook";

let slack: TestServer;
test.beforeAll(async () => {
  slack = await startTestServer({
    "POST /services/:path+": (request) =>
      request.path === WEBHOOK_PATH ? { body: "ok" } : { status: 404, body: "no_service" },
  });
});
test.afterAll(async () => {
  await slack.close();
});

const suffix = () => `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`;

/** From a product screen a step opened, back to the walk-through by the shell's banner. */
async function backToOnboarding(page: Page) {
  await page.getByTestId("onboarding-banner").getByRole("link", { name: "Back to onboarding" }).click();
  await expect(page).toHaveURL(/\/onboarding(\/overview)?(\?|$)/);
}

test("a new user signs up, creates an organization and goes through every onboarding step to a finished checklist", async ({
  page,
}) => {
  const id = suffix();
  const step = page.getByTestId("onboarding-step");

  // Sign up on the identity provider's pages.
  await page.goto("/");
  await expect(page).toHaveURL(new RegExp(`^${platformUrl}/`));
  await page.getByRole("link", { name: "Create an account" }).click();
  await page.getByLabel("Name").fill("Katherine Johnson");
  await page.getByLabel("Email").fill(`katherine-${id}@example.com`);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Create account" }).click();

  // Create the organization; onboarding opens on its first step, with every step offered to it.
  await expect(page).toHaveURL(/\/organizations\/create$/);
  await page.getByLabel("Organization name").fill("Langley Flight");
  await page.getByLabel("Identifier").fill(`langley-${id}`);
  await page.getByRole("button", { name: "Create organization" }).click();
  await expect(page).toHaveURL(/\/onboarding$/);
  await expect(step.getByText("Step 1 of 5")).toBeVisible();

  // 1. A cloud account: moto's, with an access key made there, verified on save.
  const key = await createAccessKey();
  await step.getByRole("link", { name: "Connect a cloud account" }).click();
  await expect(page).toHaveURL(/\/settings\/connections\/create\/cloud-provider\?returnTo=/);
  await page.getByRole("listitem").filter({ hasText: "Amazon Web Services" }).click();
  await page.getByRole("tab", { name: "Access keys" }).click();
  await expect(page.getByLabel("Secret access key")).toBeVisible();
  await waitForHydration(page);
  await page.getByLabel("Name").fill("Flight account");
  await page.getByLabel("AWS account id").fill(MOTO_ACCOUNT_ID);
  await page.getByLabel("Access key id").fill(key.accessKeyId);
  await page.getByLabel("Secret access key").fill(key.secretAccessKey);
  await page.getByRole("button", { name: "Connect", exact: true }).click();
  await expect(page.getByTestId("connection-status")).toHaveText("Verified");
  await backToOnboarding(page);

  // 2. An environment, through the step's form, which comes back to the next step.
  await expect(step.getByRole("heading", { name: "Create an environment" })).toBeVisible();
  await step.getByRole("link", { name: "Create an environment" }).click();
  await waitForHydration(page);
  await page.getByLabel("Name").fill("production");
  await page.getByRole("button", { name: "Create environment" }).click();
  await expect(page).toHaveURL(/\/onboarding\?step=application$/);

  // 3. An application, deployed from a public image; the step is done once it has deployed.
  await step.getByRole("link", { name: "Deploy an application" }).click();
  await waitForHydration(page);
  await page.getByRole("textbox", { name: "Image", exact: true }).fill("nginx:1.27");
  await page.getByRole("textbox", { name: "Name", exact: true }).fill("web");
  await page.getByRole("button", { name: "Deploy", exact: true }).click();
  await expect(page.getByTestId("service-title")).toHaveText("web");
  await expect(page.getByTestId("service-title").locator("xpath=..")).toContainText("Completed", {
    timeout: 150_000,
  });
  await backToOnboarding(page);

  // 4. The team: an invitation to a colleague.
  await expect(step.getByRole("heading", { name: "Invite your team" })).toBeVisible();
  await step.getByRole("link", { name: "Invite your team" }).click();
  await waitForHydration(page);
  await page.getByLabel("Email addresses").fill(`dorothy-${id}@example.com`);
  await page.getByRole("button", { name: "Send invitations" }).click();
  await expect(page.getByLabel(`Invitation link for dorothy-${id}@example.com`)).toBeVisible();
  await backToOnboarding(page);

  // 5. Slack, at the test receiver: verifying posts a test message there.
  await expect(step.getByRole("heading", { name: "Connect Slack or Teams" })).toBeVisible();
  await expect(step.getByText("Step 5 of 5")).toBeVisible();
  await step.getByRole("link", { name: "Connect Slack or Teams" }).click();
  await expect(page).toHaveURL(/\/settings\/connections\/create\/communication-platform\?returnTo=/);
  await page.getByRole("listitem").filter({ hasText: "Slack" }).click();
  await expect(page.getByRole("tab", { name: "Incoming webhook" })).toHaveAttribute("aria-selected", "true");
  await waitForHydration(page);
  await page.getByLabel("Name").fill("Flight deployments");
  await page.getByLabel("Incoming webhook URL").fill(`${slack.url}${WEBHOOK_PATH}`);
  await page.getByRole("button", { name: "Connect", exact: true }).click();
  await expect(page.getByTestId("connection-status")).toHaveText("Verified");
  expect(slack.requests.some((request) => request.path === WEBHOOK_PATH)).toBe(true);
  await backToOnboarding(page);

  // Every step ticked from the organization's data; finishing ends onboarding and home is the environment.
  await page.getByRole("link", { name: "See the checklist" }).click();
  await expect(page.getByTestId("onboarding-progress")).toHaveText("5 of 5 steps done");
  await waitForHydration(page);
  await page.getByRole("button", { name: "Finish onboarding" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Onboarding finished" })).toBeVisible();
  await expect(page).toHaveURL(/\/env\/production$/);
});
