import { expect, test } from "@playwright/test";
import { signIn } from "../setup/sign-in";

test("the API reference lists the platform's operations by area, each with its permission and schemas", async ({
  page,
}) => {
  await signIn(page, "ada@example.com");
  await page.goto("/settings");
  await page.getByRole("tab", { name: "API reference" }).click();
  await expect(page).toHaveURL(/\/settings\/api-reference$/);
  await expect(page.getByRole("heading", { name: "API reference" })).toBeVisible();
  await expect(page.getByRole("link", { name: /\/api\/openapi\.json$/ })).toBeVisible();

  const services = page.getByRole("region", { name: "services" });
  const listServices = services
    .locator("details")
    .filter({ hasText: "/api/v2/organizations/{tenantId}/environments/{environmentId}/infrastructure" })
    .filter({ hasText: /^GET/ })
    .first();
  await expect(listServices).toContainText("organization.view");
  await listServices.locator("summary").click();
  await expect(listServices.getByRole("cell", { name: "page (optional)" })).toBeVisible();
  await expect(listServices).toContainText("infrastructure: {");
  await expect(listServices).toContainText("Errors · An error");
});
