import { readFile } from "node:fs/promises";
import { expect, test, type Page } from "@playwright/test";
import { createEnvironment, openEnvironment, uniqueEnvironmentName } from "../setup/environments";
import { signIn } from "../setup/sign-in";

const MASK = "••••••••";

function variableRow(page: Page, name: string) {
  return page.getByTestId(`variable-${name}`);
}

async function addVariable(
  page: Page,
  { name, value, secret = false }: { name: string; value: string; secret?: boolean },
) {
  await page.getByRole("button", { name: "Add variable" }).click();
  const dialog = page.getByRole("dialog", { name: "Add variable" });
  await dialog.getByLabel("Name").fill(name);
  await dialog.getByLabel("Value").fill(value);
  if (secret) await dialog.getByText("Secret", { exact: true }).click();
  await dialog.getByRole("button", { name: "Add variable" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole("alert").filter({ hasText: `Variable ${name} added` })).toBeVisible();
}

async function importEnvFile(page: Page, content: string) {
  await page.getByRole("button", { name: "Import .env file" }).click();
  const dialog = page.getByRole("dialog", { name: "Import a .env file" });
  await dialog.locator('input[type="file"]').setInputFiles({
    name: "app.env",
    mimeType: "text/plain",
    buffer: Buffer.from(content),
  });
  await expect(dialog.getByLabel("Contents")).toHaveValue(content);
  await dialog.getByRole("button", { name: "Preview changes" }).click();
  await expect(dialog.getByRole("region", { name: "Import preview" })).toBeVisible();
  return dialog;
}

// Each test creates its environment first (through the create page's action, not its form).
test.setTimeout(60_000);

test("variables are added, revealed, edited and deleted by hand", async ({ page }) => {
  const environment = uniqueEnvironmentName("vars");
  await signIn(page, "ada@example.com");
  await createEnvironment(page, environment);
  await openEnvironment(page, environment, "variables");
  await expect(page.getByTestId("variables-empty")).toBeVisible();

  await addVariable(page, { name: "FEATURE_FLAG", value: "on" });
  await expect(variableRow(page, "FEATURE_FLAG").getByTestId("value-FEATURE_FLAG")).toHaveText("on");
  await expect(variableRow(page, "FEATURE_FLAG")).toContainText("No services");

  await addVariable(page, { name: "API_TOKEN", value: "s3cr3t-value", secret: true });
  const secretRow = variableRow(page, "API_TOKEN");
  await expect(secretRow).toContainText("Secret");
  await expect(secretRow.getByTestId("value-API_TOKEN")).toHaveText(MASK);
  await secretRow.getByRole("button", { name: "Reveal API_TOKEN" }).click();
  await expect(secretRow.getByTestId("value-API_TOKEN")).toHaveText("s3cr3t-value");
  await secretRow.getByRole("button", { name: "Hide API_TOKEN" }).click();
  await expect(secretRow.getByTestId("value-API_TOKEN")).toHaveText(MASK);

  // A name the platform refuses is explained in the form.
  await page.getByRole("button", { name: "Add variable" }).click();
  const addDialog = page.getByRole("dialog", { name: "Add variable" });
  await addDialog.getByLabel("Name").fill("not-valid");
  await addDialog.getByRole("button", { name: "Add variable" }).click();
  await expect(addDialog.getByText(/Name must start with a letter or underscore/)).toBeVisible();
  await addDialog.getByRole("button", { name: "Cancel" }).click();

  await variableRow(page, "FEATURE_FLAG").getByRole("button", { name: "Edit FEATURE_FLAG" }).click();
  const editDialog = page.getByRole("dialog", { name: "Edit FEATURE_FLAG" });
  await expect(editDialog.getByLabel("Value")).toHaveValue("on");
  await editDialog.getByLabel("Value").fill("off");
  await editDialog.getByRole("button", { name: "Save variable" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Variable FEATURE_FLAG saved" })).toBeVisible();
  await expect(variableRow(page, "FEATURE_FLAG").getByTestId("value-FEATURE_FLAG")).toHaveText("off");

  // A secret's value is not shown for editing: left empty, it is kept.
  await secretRow.getByRole("button", { name: "Edit API_TOKEN" }).click();
  const editSecret = page.getByRole("dialog", { name: "Edit API_TOKEN" });
  await expect(editSecret.getByLabel("Value")).toHaveValue("");
  await editSecret.getByLabel("Name").fill("API_TOKEN_V2");
  await editSecret.getByRole("button", { name: "Save variable" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Variable API_TOKEN_V2 saved" })).toBeVisible();
  const renamed = variableRow(page, "API_TOKEN_V2");
  await renamed.getByRole("button", { name: "Reveal API_TOKEN_V2" }).click();
  await expect(renamed.getByTestId("value-API_TOKEN_V2")).toHaveText("s3cr3t-value");

  await variableRow(page, "FEATURE_FLAG").getByRole("button", { name: "Delete FEATURE_FLAG" }).click();
  const confirm = page.getByRole("dialog", { name: "Delete variable" });
  await expect(confirm).toContainText("FEATURE_FLAG");
  await confirm.getByRole("button", { name: "Delete variable" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Variable FEATURE_FLAG deleted" })).toBeVisible();
  await expect(variableRow(page, "FEATURE_FLAG")).toHaveCount(0);
  await expect(renamed).toBeVisible();
});

test("a .env file is previewed as new, changed and unchanged names before it is applied", async ({
  page,
}) => {
  const environment = uniqueEnvironmentName("dotenv");
  await signIn(page, "ada@example.com");
  await createEnvironment(page, environment);
  await openEnvironment(page, environment, "variables");

  let dialog = await importEnvFile(page, "# first import\nENVIRONMENT=staging\nDEBUG=false\n");
  await expect(dialog.getByTestId("import-added-count")).toHaveText("2");
  await expect(dialog.getByTestId("import-changed-count")).toHaveText("0");
  await expect(dialog.getByTestId("import-unchanged-count")).toHaveText("0");
  await dialog.getByRole("button", { name: "Apply import" }).click();
  await expect(dialog).toBeHidden();
  await expect(
    page.getByRole("alert").filter({ hasText: "Imported 2 variables: 2 new, 0 changed" }),
  ).toBeVisible();
  await expect(variableRow(page, "DEBUG").getByTestId("value-DEBUG")).toHaveText("false");

  dialog = await importEnvFile(
    page,
    'ENVIRONMENT=staging\nDEBUG=true\nexport API_KEY="abc 123"\nbad-name=1\nnot an assignment\n',
  );
  await expect(dialog.getByRole("group", { name: "New variables" })).toContainText("API_KEY");
  await expect(dialog.getByRole("group", { name: "Changed variables", exact: true })).toContainText("DEBUG");
  await expect(dialog.getByRole("group", { name: "Unchanged variables" })).toContainText("ENVIRONMENT");
  // Lines the import leaves out are listed by number, not dropped silently.
  const skipped = dialog.getByRole("group", { name: "Skipped variables" });
  await expect(skipped.getByTestId("skipped-line-4")).toContainText("Line 4 bad-name");
  await expect(skipped.getByTestId("skipped-line-5")).toHaveText("Line 5: Not a NAME=value line");
  // Nothing was written by the preview.
  await expect(variableRow(page, "API_KEY")).toHaveCount(0);
  await expect(variableRow(page, "DEBUG").getByTestId("value-DEBUG")).toHaveText("false");

  await dialog.getByText("Store new variables as secrets").click();
  await dialog.getByRole("button", { name: "Apply import" }).click();
  await expect(
    page.getByRole("alert").filter({ hasText: "Imported 2 variables: 1 new, 1 changed" }),
  ).toBeVisible();
  await expect(variableRow(page, "DEBUG").getByTestId("value-DEBUG")).toHaveText("true");
  await expect(variableRow(page, "API_KEY").getByTestId("value-API_KEY")).toHaveText(MASK);
  await variableRow(page, "API_KEY").getByRole("button", { name: "Reveal API_KEY" }).click();
  await expect(variableRow(page, "API_KEY").getByTestId("value-API_KEY")).toHaveText("abc 123");
  await expect(variableRow(page, "ENVIRONMENT").getByTestId("value-ENVIRONMENT")).toHaveText("staging");
});

test("a secret with the same value is unchanged; editing the text asks for a new preview", async ({
  page,
}) => {
  await signIn(page, "ada@example.com");
  await openEnvironment(page, "staging", "variables");
  const dialog = await importEnvFile(
    page,
    "DB_PASSWORD=acme-staging-db-password\nLOG_LEVEL=debug\nNODE_ENV=production\n",
  );
  await expect(dialog.getByRole("group", { name: "Unchanged variables" })).toContainText("DB_PASSWORD");
  await expect(dialog.getByRole("group", { name: "Unchanged variables" })).toContainText("LOG_LEVEL");
  await expect(dialog.getByRole("group", { name: "Changed variables", exact: true })).toContainText(
    "NODE_ENV",
  );

  await dialog.getByLabel("Contents").fill("NODE_ENV=staging\n");
  await expect(dialog.getByRole("region", { name: "Import preview" })).toHaveCount(0);
  await expect(dialog.getByRole("button", { name: "Apply import" })).toHaveCount(0);
  await dialog.getByRole("button", { name: "Preview changes" }).click();
  await expect(dialog.getByTestId("import-unchanged-count")).toHaveText("1");
  await expect(dialog.getByRole("button", { name: "Apply import" })).toBeDisabled();
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toBeHidden();
});

test("the sample .env template downloads as a file with a placeholder for each variable", async ({
  page,
}) => {
  await signIn(page, "ada@example.com");
  await openEnvironment(page, "staging", "variables");
  const download = page.waitForEvent("download");
  await page.getByRole("link", { name: "Download sample .env" }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe("sample.env");
  const content = await readFile(await file.path(), "utf8");
  for (const name of [
    "ENVIRONMENT",
    "ENABLE_TLS",
    "TLS_CERT_FILE",
    "TLS_KEY_FILE",
    "DEBUG",
    "API_KEY",
    "DB_PASSWORD",
  ]) {
    expect(content).toMatch(new RegExp(`^${name}=\\S+$`, "m"));
  }
});
