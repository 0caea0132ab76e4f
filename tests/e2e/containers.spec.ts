import { expect, test, type Page } from "@playwright/test";
import { connectionPages } from "../../contract/connections";
import { appUrl, platformUrl } from "../../playwright.config";
import { e2eEngine } from "../setup/container-engine";
import { uniqueEnvironmentName } from "../setup/environments";
import { openHydrated } from "../setup/hydration";

/*
 * Issue 26 end to end in Chromium: a new user's organization connects "This machine" (the run's podman,
 * tests/setup/container-engine-service.ts), creates an environment on it, deploys nginx:1.27 (the engine's Docker
 * Hub mirror holds a stand-in) and opens the application's URL from its overview: the page the container serves.
 */

test.setTimeout(180_000);

/** A visitor signs up at the identity provider and creates an organization of their own through the forms. */
async function signUpWithOrganization(page: Page) {
  const suffix = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  await page.goto("/");
  await expect(page).toHaveURL(new RegExp(`^${platformUrl}/`));
  await page.getByRole("link", { name: "Create an account" }).click();
  await page.getByLabel("Name").fill("Grace Hopper");
  await page.getByLabel("Email").fill(`grace-${suffix}@example.com`);
  await page.getByLabel("Password").fill("correct horse battery staple");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(/\/organizations\/create$/);
  await page.getByLabel("Organization name").fill("Harbor Labs");
  await page.getByLabel("Identifier").fill(`harbor-${suffix}`);
  await page.getByRole("button", { name: "Create organization" }).click();
  await expect(page).toHaveURL(/\/onboarding$/);
}

/** Connects the run's engine as "This machine" with the connection page's action, as its form posts it. */
async function connectThisMachine(page: Page) {
  const response = await page.request.post(connectionPages.create("cloud-provider"), {
    form: {
      kind: "CONTAINER_HOST",
      method: "docker-host",
      name: "This machine",
      "fields.DOCKER_HOST": e2eEngine().dockerHost,
    },
    // The app refuses writes from other origins (app/cross-origin.server.ts).
    headers: { Origin: appUrl },
    maxRedirects: 0,
  });
  expect(response.status(), await response.text()).toBe(302);
}

/** The application's URL as its overview shows it now (its port changes with each deployment). */
async function endpointOf(page: Page): Promise<string> {
  const endpoint = page.getByTestId("service-endpoint");
  await expect(endpoint).toContainText(/http:\/\/127\.0\.0\.1:\d+/);
  return (await endpoint.textContent())?.match(/http:\/\/127\.0\.0\.1:\d+/)?.[0] ?? "";
}

/** What the page at `url` says, or "" while nothing answers there. */
const pageAt = (url: string) =>
  fetch(url).then(
    (response) => (response.ok ? response.text() : ""),
    () => "",
  );

/** Deletes the service on `servicePage` through its dialog. */
async function deleteService(page: Page, servicePage: string, name: string) {
  await openHydrated(page, servicePage);
  await page.getByRole("button", { name: "Delete", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Delete service" });
  const confirmation = dialog.getByRole("textbox");
  if (await confirmation.count()) await confirmation.fill(name);
  await dialog.getByRole("button", { name: "Delete service" }).click();
}

test("a new user fastboots the web application with PostgreSQL on this machine, opens its URL from the overview, reads the container's logs, changes a variable and redeploys (the page shows it), and a broken health check rolls back by itself", async ({
  page,
}) => {
  test.setTimeout(240_000);
  await signUpWithOrganization(page);
  await connectThisMachine(page);

  // The new environment form offers this machine first: Containers on the verified host.
  await openHydrated(page, "/environments/create");
  await expect(page.getByRole("textbox", { name: "Cloud provider", exact: true })).toHaveValue("Containers");
  await expect(page.getByRole("textbox", { name: "Container host", exact: true })).toHaveValue(
    "This machine (verified)",
  );

  // So does fastboot; on a container host the stack has no network (it has no container form) and costs nothing.
  const environment = uniqueEnvironmentName("machine");
  await openHydrated(page, "/fastboot/configure");
  await expect(page.getByRole("textbox", { name: "Cloud account", exact: true })).toHaveValue(
    "This machine (verified)",
  );
  const stack = page.getByTestId("stack-web-postgres");
  await expect(stack).not.toContainText("network");
  await expect(stack.getByTestId("stack-estimate")).toContainText("$0");
  await page.getByRole("radio", { name: "Web application with PostgreSQL" }).check();
  await page.getByRole("textbox", { name: "Environment name" }).fill(environment);
  const launchedAt = Date.now();
  await page.getByRole("button", { name: "Create and launch" }).click();
  await expect(page).toHaveURL(/\/fastboot\/[0-9a-f-]{36}$/);
  await expect(page.getByTestId("fastboot-done")).toBeVisible({ timeout: 180_000 });
  const services = page.getByRole("table", { name: "Services" });
  for (const name of ["postgres", "web"]) {
    await expect(services.getByTestId(`fastboot-service-${name}`)).toContainText("Completed");
  }

  // The overview's URL is served by the container on this machine.
  await page.getByRole("link", { name: "Open web's overview" }).click();
  await expect(page.getByTestId("service-title")).toHaveText("web");
  const servicePage = new URL(page.url()).pathname;
  let url = await endpointOf(page);
  await expect.poll(() => pageAt(url)).toContain("Welcome to nginx!");
  console.info(`containers.spec: from fastboot's launch to ${url} answering: ${Date.now() - launchedAt} ms`);
  await page.goto(url);
  await expect(page.getByRole("heading", { name: "Welcome to nginx!" })).toBeVisible();

  // The logs tab shows the container's own lines: busybox httpd's request log (the health checks, the page).
  await openHydrated(page, `${servicePage}?tab=logs`);
  const live = page.getByRole("log", { name: "Live logs" });
  await expect(live.getByTestId("log-line").filter({ hasText: "response:200" }).first()).toBeVisible();

  // A variable set on the configuration tab reaches the redeployed container: its page shows the greeting. The
  // URL is read from the overview afresh, as each deployment's container gets its own port.
  await openHydrated(page, `${servicePage}?tab=config`);
  const variables = page.getByRole("group", { name: "Environment variables" });
  await variables.getByRole("button", { name: "Add variable" }).click();
  await variables.getByRole("textbox", { name: "Name", exact: true }).last().fill("GREETING");
  await variables.getByRole("textbox", { name: "Value", exact: true }).last().fill("Ahoy from Harbor Labs");
  await page.getByRole("button", { name: "Save and deploy" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Configuration saved; deploying" })).toBeVisible();
  await expect
    .poll(
      async () => {
        await openHydrated(page, servicePage);
        url = await endpointOf(page);
        return pageAt(url);
      },
      { timeout: 120_000, intervals: [2_000] },
    )
    .toContain("Ahoy from Harbor Labs");
  await page.goto(url);
  await expect(page.getByText("Ahoy from Harbor Labs")).toBeVisible();

  // A health check that never passes: the new container goes, the running one stays, and the overview says so.
  await openHydrated(page, `${servicePage}?tab=config`);
  const health = page.getByRole("group", { name: "Health check" });
  await health.getByRole("textbox", { name: "Path", exact: true }).fill("/missing");
  await page.getByRole("button", { name: "Save and deploy" }).click();
  await expect(page.getByText(/never became healthy/).first()).toBeVisible({ timeout: 120_000 });
  expect(await pageAt(url)).toContain("Welcome to nginx!");

  // Nothing is left serving on the machine once the services are deleted.
  await deleteService(page, servicePage, "web");
  await expect.poll(() => pageAt(url), { timeout: 60_000 }).toBe("");
  await openHydrated(page, `/env/${environment}/services`);
  const postgresPage = await page
    .getByRole("table", { name: "Services" })
    .getByRole("link", { name: "postgres", exact: true })
    .getAttribute("href");
  await deleteService(page, postgresPage ?? "", "postgres");
  await expect(
    page
      .getByRole("alert")
      .filter({ hasText: /postgres/ })
      .first(),
  ).toBeVisible();
});
