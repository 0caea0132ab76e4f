import type { Page } from "@playwright/test";

/**
 * Waits until the app is interactive: root sets data-hydrated on <html> after hydration, when effects (form
 * state tracking, navigation guards) are in place. Typing or clicking earlier reaches only the server's HTML.
 */
export async function waitForHydration(page: Page): Promise<void> {
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
}
