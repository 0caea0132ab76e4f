import { expect, test, type Page } from "@playwright/test";
import { openApplicationCreatePage, setUpApplicationEnvironment } from "../setup/applications";
import { waitForHydration } from "../setup/hydration";

test.setTimeout(120_000);

const variablesOf = (page: Page) => page.getByRole("group", { name: "Environment variables" });

/** Adds a plain-value variable as the next row of the form's "Environment variables". */
async function addVariable(page: Page, name: string, value: string) {
  const names = variablesOf(page).getByRole("textbox", { name: "Name", exact: true });
  const before = await names.count();
  await variablesOf(page).getByRole("button", { name: "Add variable" }).click();
  await expect(names).toHaveCount(before + 1);
  await names.nth(before).fill(name);
  await variablesOf(page).getByRole("textbox", { name: "Value", exact: true }).nth(before).fill(value);
}

/** The form's variables, in order, as name=value. */
async function variablesShown(page: Page) {
  const names = await variablesOf(page).getByRole("textbox", { name: "Name", exact: true }).all();
  const values = await variablesOf(page).getByRole("textbox", { name: "Value", exact: true }).all();
  return Promise.all(
    names.map(async (name, index) => `${await name.inputValue()}=${await values[index]?.inputValue()}`),
  );
}

test("a variable added on the create page and another on the configuration tab are both there after a reload", async ({
  page,
}) => {
  const environment = await setUpApplicationEnvironment(page, "app-vars");
  await openApplicationCreatePage(page, environment);
  await page.getByRole("textbox", { name: "Image", exact: true }).fill("nginx:1.27");
  await page.getByRole("textbox", { name: "Name", exact: true }).fill("web");
  await addVariable(page, "GREETING", "hello");
  // The estimate settles first: it changes the form's height under the pointer as it does.
  await expect(page.getByRole("region", { name: "Estimated monthly cost" })).toContainText("$");
  await page.getByRole("button", { name: "Save as draft" }).click();
  await expect(page.getByTestId("service-title")).toHaveText("web");

  await page.goto(`${new URL(page.url()).pathname}?tab=config`);
  await waitForHydration(page);
  await expect.poll(() => variablesShown(page)).toEqual(["GREETING=hello"]);
  await addVariable(page, "LANGUAGE", "en");
  await page.getByRole("button", { name: "Save draft" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Draft saved" })).toBeVisible();

  await page.reload();
  await waitForHydration(page);
  await expect.poll(() => variablesShown(page)).toEqual(["GREETING=hello", "LANGUAGE=en"]);
});

test("without JavaScript, Add variable returns the create form with a new row and what was typed", async ({
  page,
  browser,
}) => {
  const environment = await setUpApplicationEnvironment(page, "app-vars-nojs");
  const context = await browser.newContext({
    javaScriptEnabled: false,
    storageState: await page.context().storageState(),
  });
  const plain = await context.newPage();
  await plain.goto(`/env/${environment}/applications/create`);
  await plain.getByRole("textbox", { name: "Image", exact: true }).fill("nginx:1.27");
  await variablesOf(plain).getByRole("button", { name: "Add variable" }).click();
  await expect(variablesOf(plain).getByRole("textbox", { name: "Name", exact: true })).toHaveCount(1);
  await expect(plain.getByRole("textbox", { name: "Image", exact: true })).toHaveValue("nginx:1.27");
  await context.close();
});
