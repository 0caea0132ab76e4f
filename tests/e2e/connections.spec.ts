import { expect, test, type Page } from "@playwright/test";
import { waitForHydration } from "../setup/hydration";
import { startTestServer, type TestServer } from "../../platform/testing/provider-servers";
import { signIn } from "../setup/sign-in";

// Each flow visits a dozen pages, several of which call the provider's test server.
test.setTimeout(90_000);

const RESTRICTED = "You have restricted access. Please contact admin.";
const GOOD_KEY = "dd-good-key-1234";
const WRONG_KEY = "dd-wrong-key-9876";

/** A Datadog site (its URL as DD_URL): the key validation accepts GOOD_KEY only. */
let datadog: TestServer;
test.beforeAll(async () => {
  datadog = await startTestServer({
    "GET /api/v1/validate": (request) =>
      request.headers["dd-api-key"] === GOOD_KEY
        ? { body: { valid: true } }
        : { status: 403, body: { errors: ["Forbidden"] } },
  });
});
test.afterAll(async () => {
  await datadog.close();
});

function uniqueName(purpose: string) {
  return `${purpose} ${Date.now().toString(36)}${Math.floor(Math.random() * 1296).toString(36)}`;
}

async function open(page: Page, path: string) {
  await page.goto(path);
  await waitForHydration(page);
}

/** Opens the Observability create page with Datadog chosen, hydrated. */
async function openDatadogForm(page: Page) {
  await open(page, "/settings/connections");
  await page.getByRole("link", { name: "Connect Observability" }).click();
  await expect(page.getByRole("heading", { name: "Connect: Observability" })).toBeVisible();
  await page.getByRole("listitem").filter({ hasText: "Datadog" }).click();
  await expect(page.getByLabel("API key")).toBeVisible();
  await waitForHydration(page);
}

/** Connects Datadog at the test server with `apiKey`, saved without verifying when the key is refused. */
async function connectDatadog(page: Page, name: string, apiKey: string) {
  await openDatadogForm(page);
  await page.getByLabel("Name").fill(name);
  await page.getByLabel("Datadog site").fill(datadog.url);
  await page.getByLabel("API key").fill(apiKey);
  await page.getByRole("button", { name: "Connect", exact: true }).click();
  await expect(page.getByTestId("connection-name")).toHaveText(name);
  await waitForHydration(page);
}

test("ada's Datadog: checked while typing and on save, a refused key saved without verifying, tested, fixed, edited with its key kept, its key asked again for a new address, and deleted by name", async ({
  page,
}) => {
  const name = uniqueName("Datadog");
  await signIn(page, "ada@example.com");
  await open(page, "/settings/connections");
  // Azure waits for its flag: the cloud accounts offer AWS and Google Cloud only.
  await page.getByRole("link", { name: "Connect Cloud accounts" }).click();
  const kinds = page.getByRole("list", { name: "Kinds" });
  await expect(kinds.getByRole("listitem")).toHaveText([/^Amazon Web Services/, /^Google Cloud/]);

  await openDatadogForm(page);
  // The form's own checks, with SPEC §5's messages, before anything is sent.
  await page.getByLabel("Datadog site").fill("not a url");
  await page.getByRole("button", { name: "Connect", exact: true }).click();
  await expect(page.getByText("Name is a required field")).toBeVisible();
  await expect(page.getByText("Value must be a valid URL.")).toBeVisible();
  await expect(page.getByText("API key is a required field")).toBeVisible();

  // Datadog refuses the key: its answer on the form and on the key, what was typed kept, and a way to save anyway.
  await page.getByLabel("Name").fill(name);
  await page.getByLabel("Datadog site").fill(datadog.url);
  await page.getByLabel("API key").fill(WRONG_KEY);
  // The key stays in the browser's form: the server's answer never carries it back.
  const answers: string[] = [];
  await page.route(/\/settings\/connections\/create\//, async (route) => {
    if (route.request().method() !== "POST") return route.fallback();
    const response = await route.fetch();
    const body = await response.text();
    answers.push(body);
    await route.fulfill({ response, body });
  });
  await page.getByRole("button", { name: "Connect", exact: true }).click();
  const refusal = "Datadog refused the API key for 127.0.0.1";
  await expect.poll(() => answers.join("\n")).toContain(refusal);
  expect(answers.join("\n")).not.toContain(WRONG_KEY);
  await page.unrouteAll();
  await expect(page.getByRole("alert").filter({ hasText: "Not saved" })).toContainText(refusal);
  await expect(page.getByLabel("API key")).toHaveAccessibleDescription(new RegExp(refusal));
  await expect(page.getByLabel("API key")).toHaveValue(WRONG_KEY);
  await expect(page.getByLabel("Name")).toHaveValue(name);
  await expect(page.getByLabel("Datadog site")).toHaveValue(datadog.url);
  await page.getByRole("button", { name: "Save without verifying" }).click();
  await expect(page.getByTestId("connection-name")).toHaveText(name);
  // The refusal is recorded with the save: failing, with when and why, never "Never checked".
  await expect(page.getByTestId("connection-status")).toHaveText("Failing");
  await expect(page.getByText(`Just now · Failed: ${refusal}`, { exact: false })).toBeVisible();
  await expect(page.getByTestId("field-DD_API_KEY")).toHaveText("Set, ends with ····9876");
  await expect(page.getByTestId("field-DD_URL")).toHaveText(datadog.url);
  await expect(page.locator("body")).not.toContainText(WRONG_KEY);
  await waitForHydration(page);

  // 'Test connection' asks Datadog again and records the answer.
  await page.getByRole("button", { name: "Test connection" }).click();
  await expect(page.getByTestId("test-result")).toContainText(refusal);
  await expect(page.getByTestId("connection-status")).toHaveText("Failing");
  await expect(page.getByRole("table", { name: "Checks" }).getByRole("row")).toHaveCount(3);
  await expect(page.getByRole("table", { name: "Checks" })).toContainText("Failed");
  await expect(page.getByRole("table", { name: "Checks" })).toContainText("Ada Lovelace");

  // Edit: the key starts empty (the stored one is only hinted); the right key verifies.
  await page.getByRole("link", { name: "Edit", exact: true }).click();
  await expect(page.getByRole("heading", { name: `Edit ${name}` })).toBeVisible();
  await waitForHydration(page);
  await expect(page.getByLabel("API key")).toHaveValue("");
  await expect(page.getByLabel("API key")).toHaveAccessibleDescription(
    "Set, ends with ····9876. Leave empty to keep the current value.",
  );
  await page.getByLabel("API key").fill(GOOD_KEY);
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByTestId("connection-status")).toHaveText("Verified");
  await expect(page.getByTestId("field-DD_API_KEY")).toHaveText("Set, ends with ····1234");

  // Renamed with the key left empty: the stored key is kept, and checked again on save.
  const renamed = `${name} EU`;
  await page.getByRole("link", { name: "Edit", exact: true }).click();
  await waitForHydration(page);
  await page.getByLabel("Name").fill(renamed);
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByTestId("connection-name")).toHaveText(renamed);
  await expect(page.getByTestId("connection-status")).toHaveText("Verified");
  await expect(page.getByTestId("field-DD_API_KEY")).toHaveText("Set, ends with ····1234");
  const validations = datadog.requests.filter((request) => request.path === "/api/v1/validate");
  expect(validations.at(-1)?.headers["dd-api-key"]).toBe(GOOD_KEY);

  // Pointed at another address, the key must be typed again: the stored one never follows it there.
  await page.getByRole("link", { name: "Edit", exact: true }).click();
  await waitForHydration(page);
  await page.getByLabel("Datadog site").fill(`${datadog.url}/elsewhere`);
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByLabel("API key")).toHaveAccessibleDescription(
    /Enter the API key again: the connection now points at a new address\./,
  );
  expect(datadog.requests.filter((request) => request.path.startsWith("/elsewhere"))).toHaveLength(0);
  await page.getByLabel("Datadog site").fill(datadog.url);
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByTestId("connection-name")).toHaveText(renamed);
  await expect(page.getByTestId("field-DD_URL")).toHaveText(datadog.url);

  // The list says what each connection is and how its last check went.
  await open(page, "/settings/connections/list");
  const row = page.getByTestId(`connection-${renamed}`);
  await expect(row).toContainText("Datadog");
  await expect(row).toContainText("Verified");
  await expect(row).toContainText(/Just now · OK|minute.* ago · OK/);
  await expect(row).toContainText("Nothing");

  // Deleting asks for the name, typed exactly.
  await row.getByRole("link", { name: renamed }).click();
  await waitForHydration(page);
  await page.getByRole("button", { name: "Delete", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Delete connection" });
  await dialog.getByLabel(`Type ${renamed} to confirm`).fill(name);
  await expect(dialog.getByRole("button", { name: "Delete" })).toBeDisabled();
  await dialog.getByLabel(`Type ${renamed} to confirm`).fill(renamed);
  await dialog.getByRole("button", { name: "Delete" }).click();
  await expect(page).toHaveURL(/\/settings\/connections$/);
  await expect(page.getByRole("alert").filter({ hasText: `${renamed} deleted` })).toBeVisible();
  await open(page, "/settings/connections/list");
  await expect(page.getByTestId(`connection-${renamed}`)).toHaveCount(0);
});

test("the account id is checked while typing, and an unreachable host is said in plain words", async ({
  page,
}) => {
  await signIn(page, "ada@example.com");
  await open(page, "/settings/connections/create/cloud-provider?kind=aws&method=keys");
  const accountId = page.getByLabel("AWS account id");
  await accountId.pressSequentially("1234-56");
  await expect(accountId).toHaveAccessibleDescription(
    /Value must be 12 digits, optionally with dashes every 4 digits/,
  );
  await accountId.pressSequentially("78-9012");
  await expect(accountId).not.toHaveAccessibleDescription(/Value must be/);

  await openDatadogForm(page);
  await page.getByLabel("Name").fill(uniqueName("Unreachable"));
  await page.getByLabel("Datadog site").fill("http://datadog.invalid");
  await page.getByLabel("API key").fill(GOOD_KEY);
  await page.getByRole("button", { name: "Connect", exact: true }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Not saved" })).toContainText(
    "Could not reach datadog.invalid",
  );
  await expect(page.getByRole("button", { name: "Save without verifying" })).toBeVisible();
});

test("read-only and developer members see connections without secret hints and cannot change them", async ({
  browser,
  page,
}) => {
  const name = uniqueName("Shared Datadog");
  await signIn(page, "ada@example.com");
  await connectDatadog(page, name, GOOD_KEY);
  const viewUrl = new URL(page.url()).pathname;
  const editUrl = viewUrl.replace("/view/", "/edit/");
  await expect(page.getByTestId("field-DD_API_KEY")).toHaveText("Set, ends with ····1234");

  // frank (whose role only this spec changes) becomes a developer: the role without connections.manage.
  await open(page, "/settings/users");
  await page.getByRole("link", { name: "Frank Moss", exact: true }).click();
  await page.getByRole("link", { name: "Edit roles" }).click();
  await waitForHydration(page);
  await page.getByRole("textbox", { name: "Role" }).click();
  await page.getByRole("option", { name: "developer", exact: true }).click();
  await page.getByLabel("The whole organization").check();
  await page.getByRole("button", { name: "Save role" }).click();
  await page
    .getByRole("dialog", { name: "Change role" })
    .getByRole("button", { name: "Change role" })
    .click();
  await expect(page.getByRole("alert").filter({ hasText: "Roles saved" })).toBeVisible();

  for (const email of ["bob@example.com", "frank@example.com"]) {
    const context = await browser.newContext();
    const member = await context.newPage();
    await signIn(member, email, "/settings/connections");
    await waitForHydration(member);
    const connect = member.getByRole("button", { name: "Connect Observability" });
    await expect(connect).toHaveAttribute("aria-disabled", "true");
    await connect.focus();
    await expect(member.getByRole("tooltip")).toHaveText(RESTRICTED);

    await open(member, viewUrl);
    await expect(member.getByTestId("connection-name")).toHaveText(name);
    await expect(member.getByTestId("field-DD_API_KEY")).toHaveText("Set");
    await expect(member.locator("body")).not.toContainText("1234");
    for (const control of ["Test connection", "Edit", "Delete"]) {
      await expect(member.getByRole("button", { name: control, exact: true })).toHaveAttribute(
        "aria-disabled",
        "true",
      );
    }
    await member.getByRole("button", { name: "Delete", exact: true }).click({ force: true });
    await expect(member.getByRole("dialog")).toHaveCount(0);

    await member.goto("/settings/connections/create/observability");
    await expect(member).toHaveURL(/\/401$/);
    await member.goto(editUrl);
    await expect(member).toHaveURL(/\/401$/);
    await context.close();
  }
});
