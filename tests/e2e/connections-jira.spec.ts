import { expect, test } from "@playwright/test";
import { startFakeJira, type FakeJira } from "../../platform/testing/provider-servers";
import { createEnvironment, uniqueEnvironmentName } from "../setup/environments";
import { waitForHydration } from "../setup/hydration";
import { signIn } from "../setup/sign-in";

// A deploy that fails (ENGINE_FAILURE_INJECTION, a name with fail-deploy) takes about ten seconds.
test.setTimeout(120_000);

const EMAIL = "ada@example.com";
const TOKEN = "jira-api-token-0042";

/** A Jira Cloud site (its URL as the connection's site URL) with one project. */
let jira: FakeJira;
test.beforeAll(async () => {
  jira = await startFakeJira({
    email: EMAIL,
    token: TOKEN,
    displayName: "Ada Lovelace",
    projects: [{ key: "OPS", name: "Operations", issueTypes: ["Task", "Bug"] }],
  });
});
test.afterAll(async () => {
  await jira.close();
});

test("a failed deployment becomes a Jira ticket through ada's Jira connection", async ({ page }) => {
  const environment = uniqueEnvironmentName("jira");
  const name = `Jira ${environment}`;
  await signIn(page, EMAIL);
  await createEnvironment(page, environment);

  await page.goto("/settings/connections");
  await waitForHydration(page);
  await page.getByRole("link", { name: "Connect Ticket manager" }).click();
  // The only kind of its category is chosen already.
  await expect(page.getByRole("list", { name: "Kinds" })).toHaveCount(0);
  await waitForHydration(page);
  await page.getByLabel("Name").fill(name);
  await page.getByLabel("Site URL").fill(jira.url);
  await page.getByLabel("E-mail").fill(EMAIL);
  await page.getByLabel("API token").fill(TOKEN);
  await page.getByLabel("Project key").fill("OPS");
  await page.getByRole("button", { name: "Connect", exact: true }).click();
  await expect(page.getByTestId("connection-name")).toHaveText(name);
  await expect(page.getByTestId("connection-status")).toHaveText("Verified");

  const serviceName = "tickets-fail-deploy";
  await page.goto(`/env/${environment}/services/queue/create`);
  await waitForHydration(page);
  await page.getByRole("textbox", { name: "Name", exact: true }).fill(serviceName);
  await page.getByRole("button", { name: "Create", exact: true }).click();
  await expect(page.getByTestId("service-title")).toHaveText(serviceName);
  const failure = page.getByTestId("service-failure");
  await expect(failure).toBeVisible({ timeout: 90_000 });
  await waitForHydration(page);
  // The organization's one Jira connection (only this spec adds one) needs no choosing.
  await failure.getByRole("button", { name: "Create ticket" }).click();

  const ticket = page.getByTestId("service-ticket");
  await expect(ticket).toContainText("OPS-");
  const key = (await ticket.getByRole("link").textContent()) ?? "";
  await expect(ticket.getByRole("link", { name: key })).toHaveAttribute("target", "_blank");
  const issue = jira.issues.find((one) => one.key === key);
  expect(issue?.fields.summary).toBe(`Deployment of ${serviceName} failed in ${environment}`);
  expect(JSON.stringify(issue?.fields.description)).toContain(`/env/${environment}/services/`);
});
