import { expect, type Page } from "@playwright/test";
import { appUrl } from "../../playwright.config";
import { defaultServiceConfigs, type ServiceConfig } from "../../contract/service-configs";
import type { CreatableServiceType } from "../../contract/service-catalogue";
import { waitForHydration } from "./hydration";

/**
 * Creates and deploys a service for a spec's set-up (signed in already), without the form: one request to the
 * create page's action with the page's session, as the form would post it (the type's defaults, `config` over
 * them). Specs about the create page (services-create.spec.ts) fill its form. Answers the service's page.
 */
export async function createService<T extends CreatableServiceType>(
  page: Page,
  environment: string,
  serviceType: T,
  name: string,
  config: Partial<ServiceConfig<T>> = {},
): Promise<string> {
  const form: Record<string, string> = { name, intent: "create" };
  for (const [key, value] of Object.entries({ ...defaultServiceConfigs[serviceType], ...config })) {
    // An unchecked switch sends nothing; a list is typed as comma-separated text.
    if (value === false) continue;
    form[`config.${key}`] = value === true ? "on" : Array.isArray(value) ? value.join(", ") : String(value);
  }
  const response = await page.request.post(`/env/${environment}/services/${serviceType}/create`, {
    form,
    // The app refuses writes from other origins (app/cross-origin.server.ts).
    headers: { Origin: appUrl },
    maxRedirects: 0,
  });
  expect(response.status(), await response.text()).toBe(302);
  return response.headers()["location"] ?? "";
}

/** Opens a service's page (what createService answers), hydrated. */
export async function openService(page: Page, servicePage: string | Promise<string>) {
  await page.goto(await servicePage);
  await waitForHydration(page);
}

/** Waits, on a service's page, until its deployment has completed (a cloud's may take a while). */
export async function expectCompleted(page: Page) {
  await expect(page.getByTestId("service-title").locator("xpath=..")).toContainText("Completed", {
    timeout: 120_000,
  });
}
