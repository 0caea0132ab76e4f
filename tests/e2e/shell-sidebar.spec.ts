import { expect, test, type Locator } from "@playwright/test";
import { waitForHydration } from "../setup/hydration";
import { signIn } from "../setup/sign-in";

async function width(locator: Locator): Promise<number | undefined> {
  return (await locator.boundingBox())?.width;
}

test("the collapsed sidebar stays collapsed after a reload, already in the server's HTML", async ({
  page,
  browser,
}) => {
  await signIn(page, "ada@example.com", "/environments");
  await waitForHydration(page);
  const sidebar = page.getByRole("navigation", { name: "Main navigation" });
  await expect.poll(() => width(sidebar)).toBe(186);
  const header = page.locator(".mantine-AppShell-header");
  expect((await header.boundingBox())?.height).toBe(65);

  await page.getByRole("button", { name: "Collapse sidebar" }).click();
  await expect.poll(() => width(sidebar)).toBe(52);
  // Collapsed, the entries are icons that keep their names.
  await expect(sidebar.getByRole("link", { name: "Environments" })).toBeVisible();

  await page.reload();
  await expect(page.getByRole("button", { name: "Expand sidebar" })).toBeVisible();
  await waitForHydration(page);
  expect(await width(sidebar)).toBe(52);

  // Without JavaScript the first HTML already has the collapsed width: nothing flashes open.
  const noScript = await browser.newContext({
    javaScriptEnabled: false,
    storageState: await page.context().storageState(),
  });
  const firstPaint = await noScript.newPage();
  await firstPaint.goto("/environments");
  expect(await width(firstPaint.getByRole("navigation", { name: "Main navigation" }))).toBe(52);
  await noScript.close();

  await page.getByRole("button", { name: "Expand sidebar" }).click();
  await expect.poll(() => width(sidebar)).toBe(186);
  await page.reload();
  expect(await width(sidebar)).toBe(186);
});
