import { expect, test } from "@playwright/test";
import { waitForHydration } from "../setup/hydration";
import { signIn } from "../setup/sign-in";

test("a slow navigation covers the page with the loading overlay until it lands", async ({ page }) => {
  await signIn(page, "ada@example.com", "/environments/create");
  await waitForHydration(page);

  // Hold the next page's data until the overlay has been seen, then let it through.
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(/\/environments\.data(\?|$)/, async (route) => {
    await held;
    await route.continue();
  });

  await page
    .getByRole("navigation", { name: "Main navigation" })
    .getByRole("link", { name: "Environments" })
    .click();
  const overlay = page.getByRole("status", { name: "Loading" });
  await expect(overlay).toBeVisible();
  const box = await overlay.boundingBox();
  const viewport = page.viewportSize();
  expect(box).toMatchObject({ x: 0, y: 0, width: viewport?.width, height: viewport?.height });
  await expect(overlay).toHaveCSS("background-color", "rgba(0, 0, 0, 0.45)");

  release();
  await expect(page.getByRole("table", { name: "Environments" })).toBeVisible();
  await expect(overlay).toHaveCount(0);
});
