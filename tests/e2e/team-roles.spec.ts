import { expect, test, type Page } from "@playwright/test";
import { waitForHydration } from "../setup/hydration";
import { signIn } from "../setup/sign-in";

// One flow of about fifteen pages (create, edit, grant, refuse, restore, delete): 30 s is too short for it on a
// loaded 2-core CI machine, where it has taken 32 s with every step passing.
test.setTimeout(90_000);

async function openRoles(page: Page) {
  await page.goto("/settings/users");
  await page.getByRole("link", { name: "Roles", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Roles", level: 2 })).toBeVisible();
  await waitForHydration(page);
}

/** Gives grace (whose roles only this spec changes) one role through her edit page, confirming the change. */
async function grantGrace(page: Page, role: string, scope: "staging" | "organization") {
  await page.goto("/settings/users");
  await page.getByRole("link", { name: "Grace Hill", exact: true }).click();
  await page.getByRole("link", { name: "Edit roles" }).click();
  await expect(page.getByRole("heading", { name: "Edit Grace Hill" })).toBeVisible();
  await waitForHydration(page);
  await page.getByRole("textbox", { name: "Role" }).click();
  await page.getByRole("option", { name: role, exact: true }).click();
  if (scope === "staging") {
    await page.getByLabel("Chosen environments").check();
    await page.getByLabel("staging", { exact: true }).check();
  } else {
    await page.getByLabel("The whole organization").check();
  }
  await page.getByRole("button", { name: "Save role" }).click();
  await page
    .getByRole("dialog", { name: "Change role" })
    .getByRole("button", { name: "Change role" })
    .click();
  await expect(page.getByRole("alert").filter({ hasText: "Roles saved" })).toBeVisible();
}

async function deleteRole(page: Page, name: string) {
  await page.getByRole("button", { name: `Delete ${name}` }).click();
  const dialog = page.getByRole("dialog", { name: "Delete role" });
  await expect(dialog).toContainText(`Delete the role ${name}?`);
  await dialog.getByRole("button", { name: "Delete" }).click();
}

test("ada composes a Deployer role, grants it to grace on staging, and can delete it only once nobody holds it", async ({
  page,
}) => {
  await signIn(page, "ada@example.com");
  await openRoles(page);
  await expect(page.getByTestId("role-read-only")).toContainText(
    "See the organization's environments, services and settings (not secret values)",
  );
  await expect(page.getByTestId("role-read-only")).toContainText("Built-in");

  await page.getByRole("link", { name: "Create role" }).click();
  await expect(page.getByRole("heading", { name: "Create role" })).toBeVisible();
  await waitForHydration(page);
  // Viewing the organization is part of every role: shown ticked, not a choice.
  await expect(page.getByLabel("organization.view")).toBeChecked();
  await expect(page.getByLabel("organization.view")).toBeDisabled();
  // A built-in role's name and no permission: each field says what is wrong and keeps its value.
  await page.getByLabel("Name").fill("Admin");
  await page.getByLabel("Description").fill("Ships releases");
  await page.getByRole("button", { name: "Create role" }).click();
  await expect(page.getByText("A built-in role already has this name")).toBeVisible();
  await expect(page.getByText("Choose at least one permission")).toBeVisible();
  await expect(page.getByLabel("Description")).toHaveValue("Ships releases");

  await page.getByLabel("Name").fill("Deployer");
  await page.getByLabel("services.deploy").check();
  await page.getByRole("button", { name: "Create role" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Role Deployer created" })).toBeVisible();
  const deployer = page.getByTestId("role-Deployer");
  await expect(deployer).toContainText("Launch, retry, cancel and redeploy services");
  await expect(deployer).toContainText("Ships releases");
  await expect(deployer.getByRole("cell").nth(2)).toHaveText("0");

  await page.getByRole("link", { name: "Edit Deployer" }).click();
  await expect(page.getByRole("heading", { name: "Edit Deployer" })).toBeVisible();
  await waitForHydration(page);
  await expect(page.getByLabel("services.deploy")).toBeChecked();
  await page.getByLabel("Description").fill("Ships releases to staging");
  await page.getByRole("button", { name: "Save role" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Role Deployer saved" })).toBeVisible();
  await expect(deployer).toContainText("Ships releases to staging");

  await grantGrace(page, "Deployer", "staging");
  await expect(page.getByRole("heading", { name: "Grace Hill", level: 2 })).toBeVisible();
  await expect(page.getByText("Deployer on staging")).toBeVisible();

  // Still held: the platform refuses, and the page says why.
  await openRoles(page);
  await expect(deployer.getByRole("cell").nth(2)).toHaveText("1");
  await deleteRole(page, "Deployer");
  await expect(page.getByRole("alert").filter({ hasText: "Deployer not deleted" })).toContainText(
    "1 member holds this role: change their roles first",
  );
  await expect(deployer).toBeVisible();

  await grantGrace(page, "read-only", "organization");
  await openRoles(page);
  await deleteRole(page, "Deployer");
  await expect(page.getByRole("alert").filter({ hasText: "Role Deployer deleted" })).toBeVisible();
  await expect(page.getByTestId("role-Deployer")).toHaveCount(0);
  await expect(page.getByTestId("no-custom-roles")).toBeVisible();
});
