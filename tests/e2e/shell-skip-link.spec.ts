import { expect, test } from "@playwright/test";
import { waitForHydration } from "../setup/hydration";
import { signIn } from "../setup/sign-in";

test("the first Tab reaches 'Skip to content', which takes the keyboard past the app bar and the sidebar", async ({
  page,
}) => {
  await signIn(page, "ada@example.com", "/environments");
  await waitForHydration(page);

  await page.keyboard.press("Tab");
  const skipLink = page.getByRole("link", { name: "Skip to content" });
  await expect(skipLink).toBeFocused();
  await expect(skipLink).toBeInViewport();

  await page.keyboard.press("Enter");
  await expect(page.getByRole("main")).toBeFocused();
  await page.keyboard.press("Tab");
  await expect(page.getByRole("link", { name: "Create environment" })).toBeFocused();
});
