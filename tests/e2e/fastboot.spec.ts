import { expect, test } from "@playwright/test";
import { chooseOption, uniqueEnvironmentName } from "../setup/environments";
import { waitForHydration } from "../setup/hydration";
import { signIn } from "../setup/sign-in";

// The stack's three services deploy one after the other (scaled by ENGINE_TIME_SCALE): a slow machine needs time.
test.setTimeout(240_000);

test("ada fastboots a web application with PostgreSQL, watches it deploy and finds its URL on its overview", async ({
  page,
}) => {
  const environment = uniqueEnvironmentName("fastboot");
  await signIn(page, "ada@example.com");
  // The create page offers fastboot beside the plain form.
  await page.goto("/environments/create");
  await waitForHydration(page);
  await page.getByRole("link", { name: "Fastboot an environment" }).click();
  await expect(page).toHaveURL(/\/fastboot\/configure$/);
  await waitForHydration(page);
  await expect(page.getByRole("heading", { level: 2, name: "Fastboot an environment" })).toBeVisible();

  // Each stack says what it creates and what it costs.
  const web = page.getByTestId("stack-web-postgres");
  await expect(web).toContainText("Web application with PostgreSQL");
  await expect(web).toContainText("PostgreSQL 17");
  await expect(web.getByTestId("stack-estimate")).toContainText("$");
  await expect(page.getByTestId("stack-api-redis-queue")).toContainText("API with Redis and a queue");
  await expect(page.getByTestId("stack-kubernetes-app")).toContainText("Kubernetes cluster");

  // Another region prices the stacks there.
  const usEast = await web.getByTestId("stack-estimate").textContent();
  await chooseOption(page, "Region", /eu-west-1/, { type: "eu-west-1" });
  await expect(web.getByTestId("stack-estimate")).not.toHaveText(usEast ?? "");

  // A name missing: said at the field, nothing created.
  await page.getByRole("radio", { name: "Web application with PostgreSQL" }).check();
  await page.getByRole("button", { name: "Create and launch" }).click();
  await expect(page.getByText("Name is a required field")).toBeVisible();

  await page.getByRole("textbox", { name: "Environment name" }).fill(environment);
  await page.getByRole("button", { name: "Create and launch" }).click();

  await expect(page).toHaveURL(/\/fastboot\/[0-9a-f-]{36}$/);
  await expect(
    page.getByRole("heading", { level: 2, name: `Web application with PostgreSQL in ${environment}` }),
  ).toBeVisible();
  const services = page.getByRole("table", { name: "Services" });
  await expect(services.getByTestId("fastboot-service-network")).toBeVisible();
  await expect(services.getByTestId("fastboot-service-postgres")).toContainText("network");
  // The application waits for the database: a draft while the network deploys.
  await expect(services.getByTestId("fastboot-service-web")).toContainText("Draft");

  await expect(page.getByTestId("fastboot-done")).toBeVisible({ timeout: 200_000 });
  for (const name of ["network", "postgres", "web"]) {
    await expect(services.getByTestId(`fastboot-service-${name}`)).toContainText("Completed");
  }
  const url = await page
    .getByTestId("fastboot-done")
    .getByRole("link", { name: /^https:\/\// })
    .textContent();
  expect(url).toMatch(/^https:\/\/.+\/web$/);

  await page.getByRole("link", { name: "Open web's overview" }).click();
  await expect(page).toHaveURL(new RegExp(`/env/${environment}/services/[0-9a-f-]{36}`));
  await expect(page.getByTestId("service-title")).toHaveText("web");
  await expect(page.getByTestId("service-endpoint")).toContainText(url ?? "missing");
});
