import { expect, test } from "@playwright/test";
import { signIn } from "../setup/sign-in";

test("an admin creates an environment, lands in it and finds it in the list", async ({ page }) => {
  const name = `qa-${Date.now().toString(36)}`;
  await signIn(page, "ada@example.com", "/environments");
  await page.getByRole("link", { name: "Create environment" }).click();
  await page.getByLabel("Name").fill(name);
  await page.getByRole("button", { name: "Create environment" }).click();
  await expect(page).toHaveURL(new RegExp(`/env/${name}$`));
  await page.goto("/environments");
  await expect(page.getByRole("table", { name: "Environments" }).getByRole("cell", { name })).toBeVisible();
});

test("an invalid or taken environment name is explained and what was typed stays", async ({ page }) => {
  await signIn(page, "ada@example.com", "/environments/create");
  const name = page.getByLabel("Name");

  await name.fill("Not Valid!");
  await page.getByRole("button", { name: "Create environment" }).click();
  await expect(page.getByText(/lowercase letters, digits and hyphens/i).last()).toBeVisible();
  await expect(name).toHaveValue("Not Valid!");

  await name.fill("production");
  await page.getByRole("button", { name: "Create environment" }).click();
  await expect(page.getByText("An environment with this name already exists")).toBeVisible();
  await expect(name).toHaveValue("production");
});
