import { expect, test, type Page } from "@playwright/test";
import { appUrl } from "../../playwright.config";
import { startTestServer, type TestServer } from "../../platform/testing/provider-servers";
import { createEnvironment, uniqueEnvironmentName } from "../setup/environments";
import { waitForHydration } from "../setup/hydration";
import { signIn } from "../setup/sign-in";

// A deploy that fails (ENGINE_FAILURE_INJECTION, a name with fail-deploy) and a retried post at a fifth of their
// demo durations (ENGINE_TIME_SCALE) take about half a minute together.
test.setTimeout(150_000);

const WEBHOOK_PATH = "/services/T0ACME/B0DEPLOY/secret-webhook-path";

/** A Slack incoming webhook: "ok" on its own path, Slack's no_service elsewhere; `refuseNext` answers one 500. */
let webhook: TestServer;
let refuseNext = false;
test.beforeAll(async () => {
  webhook = await startTestServer({
    "POST /services/:path+": (request) => {
      if (request.path !== WEBHOOK_PATH) return { status: 404, body: "no_service" };
      if (refuseNext && !request.body.includes("Connection test")) {
        refuseNext = false;
        return { status: 500, body: "internal_error" };
      }
      return { body: "ok" };
    },
  });
});
test.afterAll(async () => {
  await webhook.close();
});

/** The bodies of the posts whose text names `what`, in the order they arrived. */
function postsAbout(what: string): string[] {
  return webhook.requests
    .filter((request) => request.path === WEBHOOK_PATH && request.body.includes(what))
    .map((request) => request.body);
}

async function createFailingQueue(page: Page, environment: string, name: string): Promise<string> {
  await page.goto(`/env/${environment}/services/queue/create`);
  await waitForHydration(page);
  await page.getByRole("textbox", { name: "Name", exact: true }).fill(name);
  await page.getByRole("button", { name: "Create", exact: true }).click();
  await expect(page.getByTestId("service-title")).toHaveText(name);
  return /\/services\/([^/?]+)/.exec(new URL(page.url()).pathname)?.[1] ?? "";
}

test("ada connects a Slack webhook for one environment; a failed deployment's message arrives with its link, posted again after Slack first fails", async ({
  page,
}) => {
  const environment = uniqueEnvironmentName("slack");
  const name = `Slack ${environment}`;
  await signIn(page, "ada@example.com");
  await createEnvironment(page, environment);

  await page.goto("/settings/connections");
  await waitForHydration(page);
  await page.getByRole("link", { name: "Connect Slack and Teams" }).click();
  await page.getByRole("listitem").filter({ hasText: "Slack" }).click();
  await expect(page.getByRole("tab", { name: "Incoming webhook" })).toHaveAttribute("aria-selected", "true");
  await waitForHydration(page);
  await page.getByLabel("Name").fill(name);
  // A webhook Slack does not know: its answer, on the field.
  await page.getByLabel("Incoming webhook URL").fill(`${webhook.url}/services/T0ACME/B0DEPLOY/removed`);
  await page.getByRole("button", { name: "Connect", exact: true }).click();
  await expect(page.getByLabel("Incoming webhook URL")).toHaveAccessibleDescription(
    /Slack does not know this webhook \(no_service\)/,
  );
  await page.getByLabel("Incoming webhook URL").fill(`${webhook.url}${WEBHOOK_PATH}`);
  await page.getByRole("button", { name: "Connect", exact: true }).click();
  await expect(page.getByTestId("connection-name")).toHaveText(name);
  await expect(page.getByTestId("connection-status")).toHaveText("Verified");
  // Verifying posted a real test message; the webhook's URL is a secret, hinted only.
  expect(postsAbout("Connection test")).not.toHaveLength(0);
  await expect(page.getByTestId("field-WEBHOOK_URL")).toHaveText(/^Set, ends with ····path$/);

  // Deployments everywhere by default, successes too; narrowed to the new environment.
  await waitForHydration(page);
  const rules = page.getByRole("region", { name: "Notifications" });
  await expect(page.getByRole("region", { name: "Used by" })).toContainText(
    "Notifications of every environment",
  );
  await expect(rules.getByLabel("Deployment succeeded")).toBeChecked();
  await expect(rules.getByLabel("Deployment failed")).toBeChecked();
  await expect(rules.getByLabel("Retry limit reached")).toBeChecked();
  await expect(rules.getByRole("radio", { name: "All environments" })).toBeChecked();
  await rules.getByRole("radio", { name: "Chosen environments" }).check();
  await rules.getByLabel(environment, { exact: true }).check();
  await rules.getByRole("button", { name: "Save notification rules" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Notification rules saved" })).toBeVisible();
  await page.reload();
  await expect(rules.getByRole("radio", { name: "Chosen environments" })).toBeChecked();
  await expect(rules.getByLabel(environment, { exact: true })).toBeChecked();
  await expect(page.getByRole("region", { name: "Used by" })).toContainText(
    `Notifications of ${environment}`,
  );
  const connectionPage = new URL(page.url()).pathname;

  // The deployment fails; Slack refuses the first post, the retry gets through.
  refuseNext = true;
  const serviceName = "alerts-fail-deploy";
  const serviceId = await createFailingQueue(page, environment, serviceName);
  await expect(page.getByTestId("service-failure")).toBeVisible({ timeout: 90_000 });
  await expect.poll(() => postsAbout(serviceName).length, { timeout: 60_000 }).toBeGreaterThanOrEqual(2);
  const [refused, delivered] = postsAbout(serviceName);
  expect(refused).toEqual(delivered);
  const message = delivered ?? "";
  expect(message).toContain(environment);
  expect(message).toContain("Acme Corp");
  expect(message).toContain(`${appUrl}/env/${environment}/services/${serviceId}`);

  // The connection's page lists the delivery with both attempts and Slack's answers.
  await page.goto(connectionPage);
  const delivery = page
    .getByRole("list", { name: "Deliveries" })
    .getByTestId("delivery")
    .filter({ hasText: serviceName });
  await expect(delivery).toContainText("Delivered");
  await expect(delivery).toContainText("Deployment failed");
  await expect(delivery.getByRole("list", { name: "Attempts" }).getByRole("listitem")).toHaveText([
    /^Attempt 1, .*: failed \(Slack answered 500: internal_error\)$/,
    /^Attempt 2, .*: delivered \(Slack accepted the message\.\)$/,
  ]);
});
