import { expect, type Page } from "@playwright/test";
import { waitForHydration } from "./hydration";

/**
 * A name no other test or run uses: `qa-{purpose}-` and a time-based suffix. The `qa-` start sorts it after the
 * seeded "production", which other specs expect to stay the organization's first environment.
 */
export function uniqueEnvironmentName(purpose: string): string {
  return `qa-${purpose}-${Date.now().toString(36)}${Math.floor(Math.random() * 1296).toString(36)}`;
}

/** Picks `option` in the Mantine select labelled `label` (typing first narrows a searchable one). */
export async function chooseOption(
  page: Page,
  label: string,
  option: string | RegExp,
  { type }: { type?: string } = {},
) {
  const input = page.getByRole("textbox", { name: label, exact: true });
  await input.click();
  if (type) await input.fill(type);
  await page.getByRole("option", { name: option }).click();
}

/** Creates an environment through the create page (signed in already) and waits for it to open. */
export async function createEnvironmentThroughForm(
  page: Page,
  name: string,
  {
    cloudProvider,
    region,
  }: { cloudProvider?: string; region?: { search: string; option: string | RegExp } } = {},
) {
  await page.goto("/environments/create");
  await waitForHydration(page);
  await page.getByLabel("Name").fill(name);
  if (cloudProvider) await chooseOption(page, "Cloud provider", cloudProvider);
  if (region) await chooseOption(page, "Region", region.option, { type: region.search });
  await page.getByRole("button", { name: "Create environment" }).click();
  await expect(page).toHaveURL(new RegExp(`/env/${name}$`));
  await expect(page.getByTestId("environment-title")).toHaveText(name);
}

/** Opens a section of an environment's pages, hydrated. */
export async function openEnvironment(page: Page, name: string, section = "") {
  await page.goto(`/env/${name}${section ? `/${section}` : ""}`);
  await waitForHydration(page);
  await expect(page.getByTestId("environment-title")).toHaveText(name);
}
