import { expect, test, type Page } from "@playwright/test";
import { apiTokenErrorMessages } from "../../contract/api-tokens";
import { appUrl, platformUrl } from "../../playwright.config";
import { createEnvironment, uniqueEnvironmentName } from "../setup/environments";
import { waitForHydration } from "../setup/hydration";
import { signIn } from "../setup/sign-in";

/*
 * Issue 29's service accounts screen end to end: an admin makes a service account holding developer on one
 * (simulated) environment, mints its token (shown once, copied with the button), sees its expiry and last use,
 * regenerates it (the old secret refused at once) and revokes it.
 */

test.setTimeout(90_000);

/** The token value the page shows once, in the status alert titled `title`. */
async function shownToken(page: Page, title: string) {
  const shown = page.getByRole("status", { name: title });
  await expect(shown).toContainText("will not be shown again");
  const value = (await shown.getByTestId("new-token-value").textContent()) ?? "";
  expect(value).toMatch(/^ccp_[A-Za-z0-9]{36}$/);
  return { shown, value };
}

const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

test("an admin runs a service account's token from creation through regeneration to revocation", async ({
  page,
  context,
}) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: appUrl });
  const environment = uniqueEnvironmentName("robots");
  const account = `deployer-${Date.now().toString(36)}`;
  const tokenName = "github actions";
  await signIn(page, "ada@example.com");
  await createEnvironment(page, environment, { open: false });

  await page.goto("/settings/users/service-accounts");
  await waitForHydration(page);
  await page.getByRole("textbox", { name: "Name", exact: true }).fill(account);
  await page.getByRole("checkbox", { name: environment }).check();
  await page.getByRole("button", { name: "Create service account" }).click();
  const region = page.getByRole("region", { name: `Service account ${account}` });
  await expect(region).toContainText(`developer on ${environment}`);

  try {
    const newToken = region.getByRole("form", { name: `New token for ${account}` });
    await newToken.getByLabel("Token name").fill(tokenName);
    await newToken.getByRole("button", { name: "Create token" }).click();
    const first = await shownToken(page, `API token ${tokenName} created`);
    await first.shown.getByRole("button", { name: "Copy" }).click();
    await expect(first.shown.getByRole("button", { name: "Copied" })).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(first.value);

    // The token speaks for the account in its organization; its use shows in the list, never its value.
    const use = (value: string) =>
      page.request.get(`${platformUrl}/api/api-tokens/current`, {
        headers: { Authorization: `Bearer ${value}` },
      });
    const current = await use(first.value);
    expect(current.status()).toBe(200);
    expect(await current.json()).toMatchObject({ serviceAccount: account });
    await page.reload();
    await waitForHydration(page);
    const row = region.getByRole("table", { name: `Tokens of ${account}` }).getByRole("row", {
      name: new RegExp(tokenName),
    });
    await expect(row).toContainText(`ccp_…${first.value.slice(-4)}`);
    await expect(row).toContainText(inDays(90));
    await expect(row).not.toContainText("Never");
    await expect(page.getByText(first.value)).toHaveCount(0);

    await row.getByRole("button", { name: `Regenerate ${tokenName}` }).click();
    const dialog = page.getByRole("dialog", { name: "Regenerate API token" });
    await expect(dialog).toContainText("Its current secret is refused from its next request");
    await dialog.getByLabel("New secret expires after").selectOption("30");
    await dialog.getByRole("button", { name: "Regenerate" }).click();
    const second = await shownToken(page, `API token ${tokenName} regenerated`);
    expect(second.value).not.toBe(first.value);
    await expect(row).toContainText(inDays(30));
    await expect(row).toContainText("Never");
    const refused = await use(first.value);
    expect(refused.status()).toBe(401);
    expect(await refused.json()).toMatchObject({ message: apiTokenErrorMessages.revoked });
    expect((await use(second.value)).status()).toBe(200);

    await row.getByRole("button", { name: `Revoke ${tokenName}` }).click();
    await page
      .getByRole("dialog", { name: "Revoke API token" })
      .getByRole("button", { name: "Revoke" })
      .click();
    await expect(region).toContainText("No tokens yet.");
    expect((await use(second.value)).status()).toBe(401);
  } finally {
    // Through the page's own action, as its Delete dialog posts it: reruns on the same data stay under the plan.
    const serviceAccountId = await region
      .locator('input[name="serviceAccountId"]')
      .inputValue({ timeout: 5_000 })
      .catch(() => "");
    if (serviceAccountId) {
      await page.request.post("/settings/users/service-accounts", {
        form: { intent: "delete-account", serviceAccountId, name: account },
        headers: { Origin: appUrl },
      });
    }
  }
});
