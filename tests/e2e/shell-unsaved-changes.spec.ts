import { expect, test } from "@playwright/test";
import { waitForHydration } from "../setup/hydration";
import { signIn } from "../setup/sign-in";

test("leaving a changed form asks first: 'Review changes' stays, 'Discard changes and exit' leaves", async ({
  page,
}) => {
  await signIn(page, "ada@example.com", "/environments/create");
  await waitForHydration(page);
  const name = page.getByLabel("Name");
  await name.fill("half-typed");
  const sidebarLink = page.getByRole("navigation", { name: "Main navigation" }).getByRole("link", {
    name: "Environments",
  });
  const dialog = page.getByRole("dialog", { name: "You have unsaved changes" });

  await sidebarLink.click();
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText("Are you sure you want to discard the changes");
  await dialog.getByRole("button", { name: "Review changes" }).click();
  await expect(dialog).toBeHidden();
  await expect(page).toHaveURL(/\/environments\/create$/);
  await expect(name).toHaveValue("half-typed");

  await sidebarLink.click();
  await expect(dialog).toBeVisible();
  await dialog.getByRole("button", { name: "Discard changes and exit" }).click();
  await expect(page).toHaveURL(/\/environments$/);
  await expect(page.getByRole("table", { name: "Environments" })).toBeVisible();
  await expect(dialog).toBeHidden();
});

test("the form's Cancel link is guarded too; an unchanged form is left without a question", async ({
  page,
}) => {
  await signIn(page, "ada@example.com", "/environments/create");
  await waitForHydration(page);
  await page.getByLabel("Name").fill("x");
  await page.getByRole("link", { name: "Cancel" }).click();
  const dialog = page.getByRole("dialog", { name: "You have unsaved changes" });
  await expect(dialog).toBeVisible();
  await dialog.getByRole("button", { name: "Review changes" }).click();
  await expect(dialog).toBeHidden();

  await page.getByLabel("Name").fill("");
  await page.getByRole("link", { name: "Cancel" }).click();
  await expect(page).toHaveURL(/\/environments$/);
  await expect(page.getByRole("dialog")).toHaveCount(0);
});

test("closing the page with unsaved changes is guarded by the browser's own question", async ({ page }) => {
  await signIn(page, "ada@example.com", "/environments/create");
  await waitForHydration(page);
  // Chromium asks only on pages the user has interacted with: click and type like a person.
  await page.getByLabel("Name").click();
  await page.keyboard.type("half-typed");
  const asked = page.waitForEvent("dialog");
  await page.close({ runBeforeUnload: true });
  const question = await asked;
  expect(question.type()).toBe("beforeunload");
  await question.dismiss();
  expect(page.isClosed()).toBe(false);
  await expect(page.getByLabel("Name")).toHaveValue("half-typed");
});
