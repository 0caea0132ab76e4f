import { expect, test, type Browser, type Page } from "@playwright/test";
import { platformUrl } from "../../playwright.config";
import { openEnvironment, uniqueEnvironmentName } from "../setup/environments";
import { waitForHydration } from "../setup/hydration";
import { signIn } from "../setup/sign-in";

const PASSWORD = "correct horse battery staple";

// Sign-up hashes a password (scrypt) and the flow crosses two browsers.
test.setTimeout(90_000);

/** Ada invites `email` as developer on staging; without SMTP the page shows the link to copy. */
async function inviteDeveloperOnStaging(page: Page, email: string): Promise<string> {
  await page.goto("/settings/users/new");
  await waitForHydration(page);
  await page.getByLabel("Email addresses").fill(email);
  await page.getByLabel("Chosen environments").check();
  await page.getByLabel("staging", { exact: true }).check();
  await page.getByRole("button", { name: "Send invitations" }).click();
  await expect(page.getByText(`No mail was sent to ${email}`)).toBeVisible();
  return page.getByLabel(`Invitation link for ${email}`).inputValue();
}

async function newPage(browser: Browser): Promise<Page> {
  return (await browser.newContext()).newPage();
}

async function addVariable(page: Page, name: string) {
  await page.getByRole("button", { name: "Add variable" }).click();
  const dialog = page.getByRole("dialog", { name: "Add variable" });
  await dialog.getByLabel("Name").fill(name);
  await dialog.getByLabel("Value").fill("on");
  await dialog.getByRole("button", { name: "Add variable" }).click();
  return dialog;
}

test("ada invites erin as developer on staging; a re-sent link kills the old one; erin signs up through the link, joins Acme Corp, changes staging and is refused on production", async ({
  page,
  browser,
}) => {
  await signIn(page, "ada@example.com");
  const firstLink = await inviteDeveloperOnStaging(page, "erin@example.com");
  expect(firstLink).toMatch(/\/invitations\/accept\?token=[\w-]{43}$/);

  await page.goto("/settings/users/invite");
  await waitForHydration(page);
  const row = page.getByTestId("invitation-erin@example.com");
  await expect(row).toContainText("developer on staging");
  await expect(row).toContainText("pending");
  await row.getByRole("button", { name: "Re-send the invitation to erin@example.com" }).click();
  const link = await page.getByLabel("Invitation link for erin@example.com").inputValue();
  expect(link).not.toBe(firstLink);

  // Erin, in her own browser and not signed in, opens the old link: it is dead, in words, before any sign-in.
  const erin = await newPage(browser);
  await erin.goto(firstLink);
  await expect(erin.getByTestId("invitation-problem")).toContainText("This invitation link is not valid");

  // The live link says who invites her to what before she signs up, and the sign-up starts with her address.
  await erin.goto(link);
  await expect(erin.getByRole("heading", { name: "Join Acme Corp" })).toBeVisible();
  await expect(erin.getByTestId("invitation-summary")).toHaveText(
    /^Ada Lovelace invited you \(erin@example\.com\) to join Acme Corp as developer on 1 environment\. The invitation expires on \d{4}-\d{2}-\d{2}\.$/,
  );
  await erin.getByRole("link", { name: "Create an account" }).click();
  await expect(erin).toHaveURL(new RegExp(`^${platformUrl}/`));
  await expect(erin.getByLabel("Email")).toHaveValue("erin@example.com");
  await erin.getByLabel("Name").fill("Erin Example");
  await erin.getByLabel("Password").fill(PASSWORD);
  await erin.getByRole("button", { name: "Create account" }).click();
  await expect(erin).toHaveURL(/\/invitations\/accept\?token=/);
  await waitForHydration(erin);
  await expect(erin.getByTestId("signed-in-as")).toContainText("erin@example.com");
  await erin.getByRole("button", { name: "Join Acme Corp" }).click();
  await expect(erin.getByTestId("user-name")).toBeVisible();
  await expect(erin.getByTestId("current-organization")).toHaveText("Acme Corp");

  // The link worked once.
  await erin.goto(link);
  await expect(erin.getByTestId("invitation-problem")).toContainText("already been accepted");

  await openEnvironment(erin, "staging", "variables");
  const name = uniqueEnvironmentName("erin").replaceAll("-", "_").toUpperCase();
  await addVariable(erin, name);
  await expect(erin.getByRole("alert").filter({ hasText: `Variable ${name} added` })).toBeVisible();

  // On production erin's button is disabled, and the platform refuses the change if it is sent anyway.
  await openEnvironment(erin, "production", "variables");
  await expect(erin.getByRole("button", { name: "Add variable" })).toHaveAttribute("aria-disabled", "true");
  const refusedStatus = await erin.evaluate(async (variable) => {
    const form = new FormData();
    form.set("intent", "create");
    form.set("name", variable);
    form.set("value", "on");
    return (await fetch("/env/production/variables", { method: "POST", body: form })).status;
  }, name);
  expect(refusedStatus).toBeGreaterThanOrEqual(400);

  await page.goto("/settings/users/invite");
  await expect(page.getByTestId("invitation-erin@example.com")).toContainText("accepted");

  // Ada makes erin developer on the whole organization.
  await page.goto("/settings/users");
  await page.getByRole("link", { name: "Erin Example", exact: true }).click();
  await page.getByRole("link", { name: "Edit roles" }).click();
  await waitForHydration(page);
  await page.getByLabel("The whole organization").check();
  await page.getByRole("button", { name: "Save role" }).click();
  await page
    .getByRole("dialog", { name: "Change role" })
    .getByRole("button", { name: "Change role" })
    .click();
  await expect(page.getByRole("alert").filter({ hasText: "Roles saved" })).toBeVisible();

  // Ada removes erin: erin's next page drops Acme Corp, her only organization.
  await page.getByRole("link", { name: "Edit roles" }).click();
  await waitForHydration(page);
  await page.getByRole("button", { name: "Remove from organization" }).click();
  await page.getByRole("dialog", { name: "Remove member" }).getByRole("button", { name: "Remove" }).click();
  await expect(
    page.getByRole("alert").filter({ hasText: "Member removed from the organization" }),
  ).toBeVisible();
  await erin.reload();
  await expect(erin).toHaveURL(/\/organizations\/create$/);

  // The audit log holds each step, with erin's refused change on production.
  await page.goto("/settings/audit-log");
  const events = page.getByRole("table", { name: "Audit events" });
  for (const action of [
    "invitations.create",
    "invitations.resend",
    "members.roles-update",
    "members.remove",
  ]) {
    await expect(events.getByRole("row").filter({ hasText: action }).first()).toBeVisible();
  }
  const erinRows = events.getByRole("row").filter({ hasText: "erin@example.com" });
  await expect(erinRows.filter({ hasText: "Refused · 403" }).first()).toBeVisible();
  await expect(erinRows.filter({ hasText: "Allowed · 201" }).first()).toBeVisible();
});
