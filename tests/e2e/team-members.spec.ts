import { expect, test, type Page } from "@playwright/test";
import { waitForHydration } from "../setup/hydration";
import { signIn } from "../setup/sign-in";

// The tests change and then restore frank's roles and try ada's: one at a time. Frank is changed only here, so
// specs that rely on bob's and grace's roles can run beside this one.
test.describe.configure({ mode: "serial" });

const lastAdminMessage =
  "An organization must keep at least one admin: make another member admin of the whole organization first.";

async function openMember(page: Page, name: string) {
  await page.goto("/settings/users");
  await page.getByRole("link", { name, exact: true }).click();
  await expect(page.getByRole("heading", { name, level: 2 })).toBeVisible();
}

async function editMember(page: Page, name: string) {
  await openMember(page, name);
  await page.getByRole("link", { name: "Edit roles" }).click();
  await expect(page.getByRole("heading", { name: `Edit ${name}` })).toBeVisible();
  await waitForHydration(page);
}

async function chooseRole(page: Page, role: string) {
  await page.getByRole("textbox", { name: "Role" }).click();
  await page.getByRole("option", { name: role, exact: true }).click();
}

test("a member's page opens by e-mail address (SPEC §2.2 /settings/users/{email}), within the organization only", async ({
  page,
}) => {
  await signIn(page, "bob@example.com", "/settings/users/Grace@example.com");
  await expect(page).toHaveURL(/\/settings\/users\/user_grace$/);
  await expect(page.getByRole("heading", { name: "Grace Hill", level: 2 })).toBeVisible();

  // Carol is a member of Initech, not of Acme: her address is not found here.
  await page.goto("/settings/users/carol@example.com");
  await expect(page).toHaveURL(/\/404$/);
  await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
});

test("ada sees Acme's members with their roles, and finds one by searching", async ({ page }) => {
  await signIn(page, "ada@example.com", "/settings/users");
  const members = page.getByRole("table", { name: "Members" });
  const ada = members.getByRole("row").filter({ hasText: "ada@example.com" });
  await expect(ada).toContainText("Ada Lovelace");
  await expect(ada).toContainText("admin");
  await expect(members.getByRole("row").filter({ hasText: "bob@example.com" })).toContainText("read-only");
  await expect(page.getByRole("link", { name: "Invite people" })).toHaveAttribute(
    "href",
    "/settings/users/new",
  );

  await page.getByLabel("Search members").fill("stone");
  await page.getByRole("button", { name: "Search" }).click();
  await expect(members.getByRole("row").filter({ hasText: "bob@example.com" })).toBeVisible();
  await expect(members.getByRole("row").filter({ hasText: "ada@example.com" })).toHaveCount(0);
});

test("ada makes frank a developer on staging and back, confirming each change", async ({ page }) => {
  await signIn(page, "ada@example.com");
  await editMember(page, "Frank Moss");

  await chooseRole(page, "developer");
  await page.getByLabel("Chosen environments").check();
  await page.getByLabel("staging", { exact: true }).check();
  await page.getByRole("button", { name: "Save role" }).click();
  const dialog = page.getByRole("dialog", { name: "Change role" });
  await expect(dialog).toContainText("Frank Moss becomes developer on staging.");
  await dialog.getByRole("button", { name: "Change role" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Roles saved" })).toBeVisible();
  await expect(page.getByText("developer on staging")).toBeVisible();

  await page.getByRole("link", { name: "Edit roles" }).click();
  await waitForHydration(page);
  await chooseRole(page, "read-only");
  await page.getByLabel("The whole organization").check();
  await page.getByRole("button", { name: "Save role" }).click();
  // Cancelling changes nothing; confirming saves.
  await page.getByRole("dialog", { name: "Change role" }).getByRole("button", { name: "Cancel" }).click();
  await expect(page.getByRole("dialog", { name: "Change role" })).toHaveCount(0);
  await page.getByRole("button", { name: "Save role" }).click();
  await page
    .getByRole("dialog", { name: "Change role" })
    .getByRole("button", { name: "Change role" })
    .click();
  await expect(page.getByRole("alert").filter({ hasText: "Roles saved" })).toBeVisible();
  await expect(page.getByText("read-only", { exact: true })).toBeVisible();
});

test("demoting or removing the last admin is refused with the reason", async ({ page }) => {
  await signIn(page, "ada@example.com");
  await editMember(page, "Ada Lovelace");

  await chooseRole(page, "developer");
  await page.getByRole("button", { name: "Save role" }).click();
  await page
    .getByRole("dialog", { name: "Change role" })
    .getByRole("button", { name: "Change role" })
    .click();
  await expect(page.locator("#member-roles").getByRole("alert")).toContainText(lastAdminMessage);

  await page.getByRole("button", { name: "Remove from organization" }).click();
  await page.getByRole("dialog", { name: "Remove member" }).getByRole("button", { name: "Remove" }).click();
  await expect(page.locator("#remove-member").getByRole("alert")).toContainText(lastAdminMessage);

  await openMember(page, "Ada Lovelace");
  await expect(page.getByText("admin", { exact: true })).toBeVisible();
});

test("the organization overview shows the organization, its members per role and the plan", async ({
  page,
}) => {
  await signIn(page, "ada@example.com", "/settings/users/organization-overview");
  await expect(page.getByLabel("Display name")).toHaveValue("Acme Corp");
  await expect(page.getByText("acme-corp", { exact: true })).toBeVisible();
  await expect(page.getByText("org_acme", { exact: true })).toBeVisible();
  const perRole = page.getByRole("table", { name: "Members per role" });
  await expect(perRole.getByRole("row").filter({ hasText: "admin" })).toBeVisible();
  await expect(page.getByText("Enterprise", { exact: true })).toBeVisible();
});
