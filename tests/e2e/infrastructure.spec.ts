import { expect, test, type Page } from "@playwright/test";
import { createEnvironment, uniqueEnvironmentName } from "../setup/environments";
import { waitForHydration } from "../setup/hydration";
import { signIn } from "../setup/sign-in";

// Deployments run at the demo durations scaled by ENGINE_TIME_SCALE; a failing one (ENGINE_FAILURE_INJECTION, a
// name with fail-deploy) takes about ten seconds. The CI machine is slow.
test.setTimeout(180_000);

async function create(page: Page, environment: string, serviceType: string, fill: () => Promise<void>) {
  await page.goto(`/env/${environment}/services/${serviceType}/create`);
  await waitForHydration(page);
  await fill();
  await page.getByRole("button", { name: "Create", exact: true }).click();
  await expect(page).toHaveURL(/\/services\/[^/]+$/);
}

/** Reloads `path` until `check` passes: the overview shows the state when it was loaded. */
async function reloadUntil(page: Page, path: string, check: () => Promise<void>) {
  await expect(async () => {
    await page.goto(path);
    await check();
  }).toPass({ timeout: 150_000, intervals: [2_000, 5_000] });
}

test("the infrastructure overview lists a certificate, a load balancer and a failing resource, which the list retries", async ({
  page,
}) => {
  const environment = uniqueEnvironmentName("infra");
  await signIn(page, "ada@example.com");
  await createEnvironment(page, environment);

  // Nothing yet: both pages say so and offer to create.
  await page.goto(`/env/${environment}/infrastructure`);
  await expect(page.getByRole("heading", { name: "No infrastructure yet" })).toBeVisible();
  await page.getByRole("tab", { name: "Overview" }).click();
  await expect(page).toHaveURL(new RegExp(`/env/${environment}/infrastructure/overview$`));
  await expect(page.getByRole("heading", { name: `Nothing runs in ${environment} yet` })).toBeVisible();

  await create(page, environment, "tls", async () => {
    await page.getByRole("textbox", { name: "Name", exact: true }).fill("shop-cert");
    await page.getByLabel("Domain").fill("shop.example.com");
  });
  await create(page, environment, "queue", async () => {
    await page.getByRole("textbox", { name: "Name", exact: true }).fill("jobs-fail-deploy");
  });
  await page.goto(`/env/${environment}/applications/create`);
  await waitForHydration(page);
  await page.getByRole("textbox", { name: "Image", exact: true }).fill("nginx:1.27");
  await page.getByRole("textbox", { name: "Name", exact: true }).fill("web");
  await page.getByRole("button", { name: "Deploy", exact: true }).click();
  await expect(page.getByTestId("service-title")).toHaveText("web");

  // The sidebar's entry opens the current environment's infrastructure (the one just created).
  await page
    .getByRole("navigation", { name: "Main navigation" })
    .getByRole("link", { name: "Infrastructure" })
    .click();
  await expect(page).toHaveURL(new RegExp(`/env/${environment}/infrastructure$`));

  const overviewPath = `/env/${environment}/infrastructure/overview`;
  await reloadUntil(page, overviewPath, async () => {
    await expect(page.getByTestId("failing-resource")).toContainText("jobs-fail-deploy", { timeout: 1_000 });
    await expect(page.getByTestId("certificate")).toContainText("Issued", { timeout: 1_000 });
  });
  const failing = page.getByTestId("failing-resource");
  await expect(failing).toContainText("Queue");
  await expect(failing).toContainText(/failing since .* UTC/);
  await expect(failing).toContainText("did not become ready");

  const certificate = page.getByTestId("certificate");
  await expect(certificate).toContainText("shop.example.com");
  await expect(certificate).toContainText("shop-cert");
  await expect(certificate).toContainText(/in 39\d days/);

  const balancer = page.getByTestId("load-balancer");
  await expect(balancer).toContainText("internet-facing");
  const routes = page.getByRole("table", { name: /^Routes of / });
  await expect(routes.getByRole("row").filter({ hasText: "web" })).toContainText("HTTP 443");

  await expect(page.getByRole("heading", { name: "3 services by stage" })).toBeVisible();
  const diagram = page.getByTestId("environment-diagram");
  await expect(diagram.getByRole("list", { name: "Data services" })).toContainText("jobs-fail-deploy");
  await expect(diagram.getByRole("list", { name: "Applications on managed containers" })).toContainText(
    "web",
  );
  await expect(diagram.getByRole("list", { name: "Other services" })).toContainText("shop-cert");
  // Ada holds billing.view: the environment's spend this month shows.
  await expect(page.getByRole("heading", { name: "Spend this month" })).toBeVisible();

  // The list groups by type, leaves the application out and retries the failed queue.
  await page.getByRole("link", { name: "Retry failed resources" }).click();
  await waitForHydration(page);
  await expect(page).toHaveURL(new RegExp(`/env/${environment}/infrastructure\\?stage=STAGE_FAILED$`));
  await page.goto(`/env/${environment}/infrastructure`);
  await waitForHydration(page);
  await expect(page.getByRole("heading", { name: "Queue (1)" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "TLS certificate (1)" })).toBeVisible();
  await expect(page.getByRole("link", { name: "web", exact: true })).toHaveCount(0);
  const queue = page.getByRole("table", { name: "Queue (1)" }).getByTestId("infrastructure-row");
  await expect(queue).toContainText("jobs-fail-deploy");
  await expect(queue).toContainText("Failed");
  await expect(queue).toContainText("standard");
  await page.getByRole("button", { name: "Retry jobs-fail-deploy" }).click();
  await expect(
    page.getByRole("alert").filter({ hasText: "Retrying the deployment of jobs-fail-deploy" }),
  ).toBeVisible();
  await expect(page.getByRole("button", { name: "Retry jobs-fail-deploy" })).toHaveCount(0);
});

test("the seeded production's overview draws its cluster with the applications and shows spend only to billing.view", async ({
  page,
}) => {
  await signIn(page, "ada@example.com");
  await page.goto("/env/production/infrastructure/overview");
  const diagram = page.getByTestId("environment-diagram");
  await expect(diagram).toHaveAttribute("aria-label", "Network main-vpc");
  const cluster = diagram.getByRole("region", { name: "Cluster main-cluster" });
  await expect(cluster.getByRole("list", { name: "Applications on main-cluster" })).toContainText("api");
  await expect(cluster).toContainText("uses orders-db");
  await expect(diagram.getByRole("list", { name: "Data services" })).toContainText("used by api");
  await expect(page.getByTestId("spend-month-to-date")).toContainText("$");

  await page.context().clearCookies();
  await signIn(page, "bob@example.com", "/environments");
  await page.goto("/env/production/infrastructure/overview");
  await expect(page.getByRole("heading", { name: "How it fits together" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Spend this month" })).toHaveCount(0);
  await expect(page.getByRole("link", { name: "Cost details" })).toHaveCount(0);
});
