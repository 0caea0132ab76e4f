import { expect, test, type Page } from "@playwright/test";
import { connectionPages } from "../../contract/connections";
import { appUrl, platformUrl } from "../../playwright.config";
import { e2eEngine } from "../setup/container-engine";
import { uniqueEnvironmentName } from "../setup/environments";

/*
 * Issue 26 end to end in Chromium: a new user's organization connects "This machine" (the run's podman,
 * tests/setup/container-engine-service.ts), creates an environment on it, deploys nginx:1.27 (the engine's Docker
 * Hub mirror holds a stand-in) and opens the application's URL from its overview: the page the container serves.
 */

test.setTimeout(180_000);

/**
 * Opens `path` hydrated. Each container the machine's podman starts or stops (this run's, or another test's on the
 * same machine) adds or removes a network interface, and Chromium then aborts the loads in flight
 * (ERR_NETWORK_CHANGED): a page whose script was cut off never hydrates, so it is opened again.
 */
async function openHydrated(page: Page, path: string) {
  for (let attempt = 1; ; attempt++) {
    await page.goto(path);
    const hydrated = await page
      .locator("html[data-hydrated]")
      .waitFor({ state: "attached", timeout: 15_000 })
      .then(
        () => true,
        () => false,
      );
    if (hydrated) return;
    if (attempt === 3) throw new Error(`${path} did not hydrate after ${attempt} loads`);
  }
}

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

test("a new user deploys nginx:1.27 on this machine, opens its URL from the overview, and a broken health check rolls back by itself", async ({
  page,
}) => {
  test.setTimeout(240_000);
  await signUpWithOrganization(page);
  await connectThisMachine(page);

  // The new environment is offered this machine first: Containers on the verified host.
  const environment = uniqueEnvironmentName("machine");
  await openHydrated(page, "/environments/create");
  await expect(page.getByRole("textbox", { name: "Cloud provider", exact: true })).toHaveValue("Containers");
  await expect(page.getByRole("textbox", { name: "Container host", exact: true })).toHaveValue(
    "This machine (verified)",
  );
  await page.getByRole("textbox", { name: "Name", exact: true }).fill(environment);
  await page.getByRole("button", { name: "Create environment" }).click();
  await expect(page.getByTestId("environment-title")).toHaveText(environment);

  await openHydrated(page, `/env/${environment}/applications/create`);
  await page.getByRole("textbox", { name: "Image", exact: true }).fill("nginx:1.27");
  await page.getByRole("textbox", { name: "Name", exact: true }).fill("web");
  const deployedAt = Date.now();
  await page.getByRole("button", { name: "Deploy", exact: true }).click();
  await expect(page.getByTestId("service-title")).toHaveText("web");
  const servicePage = new URL(page.url()).pathname;
  const stage = page.getByTestId("service-title").locator("xpath=..");
  await expect(stage).toContainText("Completed", { timeout: 120_000 });

  // The overview's URL is the container's published port on this machine: it serves the container's page.
  const url = await endpointOf(page);
  await expect.poll(() => pageAt(url)).toContain("Welcome to nginx!");
  console.info(`containers.spec: from Deploy to ${url} answering: ${Date.now() - deployedAt} ms`);
  await page.goto(url);
  await expect(page.getByRole("heading", { name: "Welcome to nginx!" })).toBeVisible();

  // A health check that never passes: the new container goes, the running one stays, and the overview says so.
  await openHydrated(page, `${servicePage}?tab=config`);
  const health = page.getByRole("group", { name: "Health check" });
  await health.getByRole("textbox", { name: "Path", exact: true }).fill("/missing");
  await page.getByRole("button", { name: "Save and deploy" }).click();
  await expect(page.getByText(/never became healthy/).first()).toBeVisible({ timeout: 120_000 });
  expect(await pageAt(url)).toContain("Welcome to nginx!");

  // Nothing is left running on the machine once the service is deleted.
  await openHydrated(page, servicePage);
  await page.getByRole("button", { name: "Delete", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Delete service" });
  const confirmation = dialog.getByRole("textbox");
  if (await confirmation.count()) await confirmation.fill("web");
  await dialog.getByRole("button", { name: "Delete service" }).click();
  await expect.poll(() => pageAt(url), { timeout: 60_000 }).toBe("");
});
