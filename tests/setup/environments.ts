import { expect, type Page } from "@playwright/test";
import { appUrl } from "../../playwright.config";
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

/**
 * Creates an AWS environment in us-east-1 for a spec's set-up (signed in already), without the form: one request
 * to the create page's action with the page's session, as the form would post it. Simulated unless it is given a
 * cloud account (`cloudConnectionId`). Specs about the create page itself (environments-create.spec.ts) fill its
 * form. Opens it unless `open` is false.
 */
export async function createEnvironment(
  page: Page,
  name: string,
  {
    region = "us-east-1",
    open = true,
    cloudConnectionId,
  }: { region?: string; open?: boolean; cloudConnectionId?: string } = {},
) {
  const response = await page.request.post("/environments/create", {
    form: { name, cloudProvider: "AWS", region, ...(cloudConnectionId ? { cloudConnectionId } : {}) },
    // The app refuses writes from other origins (app/cross-origin.server.ts).
    headers: { Origin: appUrl },
    maxRedirects: 0,
  });
  expect(response.status(), await response.text()).toBe(302);
  expect(response.headers()["location"]).toMatch(new RegExp(`/env/${name}$`));
  if (open) await openEnvironment(page, name);
}

/** Opens a section of an environment's pages, hydrated. */
export async function openEnvironment(page: Page, name: string, section = "") {
  await page.goto(`/env/${name}${section ? `/${section}` : ""}`);
  await waitForHydration(page);
  await expect(page.getByTestId("environment-title")).toHaveText(name);
}
