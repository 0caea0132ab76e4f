import { expect, test } from "@playwright/test";
import { waitForHydration } from "../setup/hydration";
import { chooseOption, uniqueEnvironmentName } from "../setup/environments";
import { openUserMenu, signIn } from "../setup/sign-in";

test("an admin picks a cloud and a region, sees the cost estimate, and finds the environment in the list", async ({
  page,
}) => {
  const name = uniqueEnvironmentName("gcp");
  await signIn(page, "ada@example.com", "/environments/create");
  await waitForHydration(page);

  // The default choice is estimated before anything is touched.
  const estimate = page.getByRole("region", { name: "Estimated monthly cost" });
  await expect(page.getByRole("textbox", { name: "Cloud provider", exact: true })).toHaveValue("AWS");
  await expect(page.getByRole("textbox", { name: "Region", exact: true })).toHaveValue(
    "US East (N. Virginia) · us-east-1",
  );
  await expect(estimate.getByTestId("monthly-cost-estimate")).toHaveText(/^\$\d/);

  await page.getByLabel("Name").fill(name);
  await page.getByRole("textbox", { name: "Cloud provider", exact: true }).click();
  await expect(page.getByRole("option", { name: "Azure" })).toHaveCount(0);
  await page.getByRole("option", { name: "Google Cloud" }).click();
  // Another provider starts at its own first region, and is estimated again.
  await expect(page.getByRole("textbox", { name: "Region", exact: true })).toHaveValue("Iowa · us-central1");
  const estimateRequest = page.waitForResponse(/\/environments\/estimate-cost/);
  await chooseOption(page, "Region", "Belgium · europe-west1", { type: "europe-west1" });
  expect((await estimateRequest).ok()).toBe(true);
  await expect(page.getByRole("textbox", { name: "Region", exact: true })).toHaveValue(
    "Belgium · europe-west1",
  );
  await expect(estimate.getByTestId("monthly-cost-estimate")).toHaveText(/^\$\d/);
  await expect(estimate.getByRole("row").first()).toBeVisible();

  await page.getByRole("button", { name: "Create environment" }).click();
  await expect(page).toHaveURL(new RegExp(`/env/${name}$`));
  await expect(page.getByRole("alert").filter({ hasText: `Environment ${name} created` })).toBeVisible();

  await page.goto("/environments");
  const row = page.getByRole("table", { name: "Environments" }).getByRole("row").filter({ hasText: name });
  await expect(row.getByRole("cell")).toHaveText([
    name,
    "Draft",
    "Google Cloud",
    "Simulated cloud",
    /Belgium\s*europe-west1/,
    "0",
    /^\$\d/,
  ]);
  await row.getByRole("link", { name }).click();
  await expect(page).toHaveURL(new RegExp(`/env/${name}$`));
  await expect(page.getByTestId("environment-title")).toHaveText(name);
  await expect(page.getByRole("group", { name: "Region" })).toContainText("Belgium");
  await expect(page.getByRole("group", { name: "Region" })).toContainText("europe-west1");
  await expect(page.getByRole("group", { name: "Cloud", exact: true })).toContainText("Google Cloud");
  // No cloud account was chosen: the environment runs in a simulated one.
  await expect(page.getByRole("group", { name: "Cloud account" })).toHaveText(/Simulated cloud/);
  // Every page of the environment says it, beside the shell's environment picker.
  await expect(page.getByTestId("environment-target")).toHaveText("Simulated cloud");
});

test("the name follows the SPEC §5 rule and explains it", async ({ page }) => {
  await signIn(page, "ada@example.com", "/environments/create");
  await waitForHydration(page);
  await page.getByLabel("Name").fill("-Bad--Name");
  await page.getByLabel("Name").blur();
  await expect(
    page.getByText(
      "Value must contain only lowercase letters, digits and hyphens, and begin and end with a letter or digit.",
    ),
  ).toBeVisible();
  await page.getByLabel("Name").fill("x");
  await page.getByRole("button", { name: "Create environment" }).click();
  await expect(page.getByText("Name must be at least 2 characters")).toBeVisible();
});

test("an organization without environments shows an empty list that leads to creating one", async ({
  page,
}) => {
  await signIn(page, "ada@example.com");
  await openUserMenu(page);
  await page.getByRole("menuitem", { name: "Switch organization" }).click();
  await page
    .getByRole("dialog", { name: "Switch organization" })
    .getByRole("button", { name: "Globex" })
    .click();
  await expect(page).toHaveURL(/\/environments\/create$/);

  await page.goto("/environments");
  const empty = page.getByTestId("environments-empty");
  await expect(empty).toContainText("No environments yet");
  await empty.getByRole("link", { name: "Create environment" }).click();
  await expect(page).toHaveURL(/\/environments\/create$/);
  await expect(page.getByRole("heading", { name: "Create environment" })).toBeVisible();
});
