import { expect, test, type Page } from "@playwright/test";
import { waitForHydration } from "../setup/hydration";
import { signIn } from "../setup/sign-in";

/** The id of the seeded production service `name`, from the services list's link. */
async function serviceIdOf(page: Page, name: string): Promise<string> {
  await page.goto("/env/production/services");
  const href = await page
    .getByRole("table", { name: "Services" })
    .getByRole("link", { name, exact: true })
    .getAttribute("href");
  const id = /\/services\/([^/?]+)/.exec(href ?? "")?.[1];
  expect(id, `the link of ${name}`).toBeTruthy();
  return id ?? "";
}

// The tabs whose panels load lazily (features/services/details/lazy-panels.tsx): opened by their URL, the page
// hydrates them without a React error (#421: a Suspense boundary updated before it finished hydrating).
for (const service of ["web", "orders-db"]) {
  test(`the monitoring, logs and configuration tabs of ${service} open by their URL without an error`, async ({
    page,
  }) => {
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(`pageerror: ${error.message}`));
    page.on("console", (message) => {
      if (message.type() === "error") errors.push(`console: ${message.text()}`);
    });
    await signIn(page, "ada@example.com");
    const id = await serviceIdOf(page, service);
    for (const tab of ["monitoring", "logs", "config"]) {
      await page.goto(`/env/production/services/${id}?tab=${tab}`);
      await waitForHydration(page);
      await expect(page.getByRole("status", { name: "Loading the tab" })).toHaveCount(0);
      // What the page does right after hydration (polling, the live tail's first fetch) has had its turn.
      await page.waitForLoadState("networkidle");
      expect(errors, `the ${tab} tab`).toEqual([]);
    }
  });
}
