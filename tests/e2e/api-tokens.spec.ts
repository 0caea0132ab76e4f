import { expect, test } from "@playwright/test";
import { apiTokenErrorMessages } from "../../contract/api-tokens";
import { platformUrl } from "../../playwright.config";
import { waitForHydration } from "../setup/hydration";
import { signIn } from "../setup/sign-in";

test.setTimeout(60_000);

test("a token created in the screen calls the platform API until it is revoked there", async ({
  page,
  request,
}) => {
  const name = `e2e-${Date.now().toString(36)}`;
  await signIn(page, "ada@example.com");
  await page.goto("/settings/api-tokens");
  await waitForHydration(page);
  await expect(page.getByRole("heading", { name: "API tokens" })).toBeVisible();

  await page.getByLabel("Name").fill(name);
  await page.getByRole("button", { name: "Create token" }).click();
  const shown = page.getByRole("status", { name: `API token ${name} created` });
  await expect(shown).toContainText("will not be shown again");
  const value = (await shown.getByTestId("new-token-value").textContent()) ?? "";
  expect(value).toMatch(/^ccp_[A-Za-z0-9]{36}$/);
  await expect(shown.getByRole("button", { name: "Copy" })).toBeVisible();

  const headers = { Authorization: `Bearer ${value}` };
  const current = await request.get(`${platformUrl}/api/api-tokens/current`, { headers });
  expect(current.status()).toBe(200);
  const { tenantId } = (await current.json()) as { tenantId: string };
  const environments = await request.get(`${platformUrl}/api/v2/organizations/${tenantId}/environments`, {
    headers,
  });
  expect(environments.status()).toBe(200);

  // The list shows the use just made, and never the value.
  await page.reload();
  const row = page.getByRole("table", { name: "Your API tokens" }).getByRole("row").filter({ hasText: name });
  await expect(row).toContainText(`ccp_…${value.slice(-4)}`);
  await expect(row).not.toContainText("Never");
  await expect(page.getByText(value)).toHaveCount(0);

  await row.getByRole("button", { name: `Revoke ${name}` }).click();
  const dialog = page.getByRole("dialog", { name: "Revoke API token" });
  await dialog.getByRole("button", { name: "Revoke" }).click();
  await expect(page.getByRole("alert").filter({ hasText: `API token ${name} revoked` })).toBeVisible();
  await expect(row).toHaveCount(0);

  const refused = await request.get(`${platformUrl}/api/v2/organizations/${tenantId}/environments`, {
    headers,
  });
  expect(refused.status()).toBe(401);
  expect(await refused.json()).toMatchObject({ message: apiTokenErrorMessages.revoked });
});
