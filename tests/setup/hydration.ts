import type { Page } from "@playwright/test";

/**
 * Waits until the app is interactive: root sets data-hydrated on <html> after hydration, when effects (form
 * state tracking, navigation guards) are in place. Typing or clicking earlier reaches only the server's HTML.
 */
export async function waitForHydration(page: Page): Promise<void> {
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
}

/**
 * Opens `path` hydrated. Each container the machine's podman starts or stops (this run's, or another test's on the
 * same machine) adds or removes a network interface, and Chromium then aborts the loads in flight
 * (ERR_NETWORK_CHANGED): a page whose script was cut off never hydrates, so it is opened again.
 */
export async function openHydrated(page: Page, path: string) {
  for (let attempt = 1; ; attempt++) {
    await page.goto(path);
    const hydrated = await page
      .locator("html[data-hydrated]")
      .waitFor({ state: "attached", timeout: 15_000 })
      .then(
        () => true,
        () => false,
      );
    if (hydrated) return;
    if (attempt === 3) throw new Error(`${path} did not hydrate after ${attempt} loads`);
  }
}
