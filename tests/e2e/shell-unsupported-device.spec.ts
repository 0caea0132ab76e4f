import { expect, test, type Page } from "@playwright/test";
import { signIn } from "../setup/sign-in";

const IPHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1";

async function expectBlocker(page: Page) {
  await expect(
    page.getByRole("heading", { name: "Cloud Console is not available on phones and tablets" }),
  ).toBeVisible();
  await expect(page.getByText(/Please use a computer/)).toBeVisible();
  await expect(page.getByTestId("user-name")).toBeHidden();
  await expect(page.getByRole("table", { name: "Environments" })).toBeHidden();
}

test("a window narrower than 768 px shows the blocker instead of the app", async ({ page }) => {
  await signIn(page, "ada@example.com", "/environments");
  await page.setViewportSize({ width: 375, height: 812 });
  await page.goto("/environments");
  await expectBlocker(page);

  await page.setViewportSize({ width: 1280, height: 800 });
  await expect(page.getByRole("table", { name: "Environments" })).toBeVisible();
  await expect(page.getByRole("heading", { name: /not available on phones and tablets/ })).toBeHidden();
});

test("at 375 px the server's HTML alone shows the blocker: no flash of the app", async ({
  page,
  browser,
}) => {
  await signIn(page, "ada@example.com", "/environments");
  const context = await browser.newContext({
    javaScriptEnabled: false,
    viewport: { width: 375, height: 812 },
    storageState: await page.context().storageState(),
  });
  const narrow = await context.newPage();
  await narrow.goto("/environments");
  await expectBlocker(narrow);
  await context.close();
});

test("an iPhone sees the blocker whatever its window size, and the app is not rendered at all", async ({
  page,
  browser,
}) => {
  await signIn(page, "ada@example.com", "/environments");
  const context = await browser.newContext({
    userAgent: IPHONE,
    viewport: { width: 1280, height: 800 },
    storageState: await page.context().storageState(),
  });
  const phone = await context.newPage();
  await phone.goto("/environments");
  await expectBlocker(phone);
  await expect(phone.getByTestId("user-name")).toHaveCount(0);
  await context.close();
});
