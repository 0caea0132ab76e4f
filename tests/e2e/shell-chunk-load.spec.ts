import { expect, test } from "@playwright/test";
import { waitForHydration } from "../setup/hydration";
import { signIn } from "../setup/sign-in";

const CREATE_SCREEN_SCRIPT = /\/build\/assets\/_app\.environments\.create-[^/]+\.js$/;
const MARK = "chunk-load-reloaded:routes/_app.environments.create";

test("a screen whose script fails to load reloads once, then shows the error page with chunkLoadError", async ({
  page,
}) => {
  await signIn(page, "ada@example.com", "/environments");
  await waitForHydration(page);
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  await page.route(CREATE_SCREEN_SCRIPT, (route) => route.abort());

  const reloaded = page.waitForEvent("load");
  await page.getByRole("link", { name: "Create environment" }).click();
  await reloaded;
  await waitForHydration(page);
  await expect(page).toHaveURL(/\/environments$/);
  expect(await page.evaluate((key) => sessionStorage.getItem(key), MARK)).not.toBeNull();

  await page.getByRole("link", { name: "Create environment" }).click();
  await expect(page.getByRole("heading", { name: "Oops! Something went wrong" })).toBeVisible();
  await expect.poll(() => errors.some((text) => text.includes("chunkLoadError"))).toBe(true);

  // Once the script is reachable again the screen opens and its reload is forgotten.
  await page.unroute(CREATE_SCREEN_SCRIPT);
  await page.goto("/environments");
  await waitForHydration(page);
  await page.getByRole("link", { name: "Create environment" }).click();
  await expect(page.getByRole("heading", { name: "Create environment" })).toBeVisible();
  expect(await page.evaluate((key) => sessionStorage.getItem(key), MARK)).toBeNull();
});
