import { expect, test } from "@playwright/test";
import { startFakeGitHub, type TestServer } from "../../platform/testing/provider-servers";
import { chooseOption } from "../setup/environments";
import { waitForHydration } from "../setup/hydration";
import { signIn } from "../setup/sign-in";

// Three connection pages and two provider checks; a loaded 2-core machine needs more than 30 s for them.
test.setTimeout(90_000);

const TOKEN = "github_pat_acme_0123456789";

/** GitHub's REST API (its URL as the connection's API URL, as for GitHub Enterprise Server). */
let github: TestServer;
test.beforeAll(async () => {
  github = await startFakeGitHub({
    token: TOKEN,
    organizations: {
      "acme-labs": {
        name: "Acme Labs",
        repositories: [
          { name: "storefront", description: "The shop", branches: ["main", "release-2.0"] },
          { name: "billing-api", description: "Invoices and payments" },
        ],
        dependabotAlerts: [],
      },
    },
  });
});
test.afterAll(async () => {
  await github.close();
});

test("ada connects a GitHub organization, reads its repositories and branches, and adds Dependabot through it", async ({
  page,
}) => {
  const name = `GitHub ${Date.now().toString(36)}`;
  await signIn(page, "ada@example.com");
  await page.goto("/settings/connections");
  await waitForHydration(page);
  // The demo organization has the version-control-connection flag on.
  await page.getByRole("link", { name: "Connect GitHub" }).click();
  await page
    .getByRole("listitem")
    .filter({ hasText: /^GitHub/ })
    .click();
  await expect(page.getByLabel("Organization")).toBeVisible();
  await waitForHydration(page);
  await page.getByLabel("Name").fill(name);
  await page.getByLabel("Organization").fill("acme-labs");
  await page.getByLabel("Access token").fill(TOKEN);
  await expect(page.getByLabel("API URL")).toHaveAttribute("placeholder", "https://api.github.com");
  await page.getByLabel("API URL").fill(github.url);
  await page.getByRole("button", { name: "Connect", exact: true }).click();
  await expect(page.getByTestId("connection-name")).toHaveText(name);
  await expect(page.getByTestId("connection-status")).toHaveText("Verified");

  const repositories = page.getByRole("table", { name: "Repositories" });
  await expect(repositories).toContainText("Invoices and payments");
  await repositories.getByRole("link", { name: "storefront" }).click();
  const branches = page.getByRole("region", { name: "Branches of storefront" });
  await expect(branches.getByRole("row")).toHaveCount(2);
  await expect(branches).toContainText("release-2.0");

  await page.goto("/settings/connections/create/github-app?kind=dependabot");
  await waitForHydration(page);
  await page.getByLabel("Name").fill(`Dependabot ${name}`);
  await chooseOption(page, "GitHub connection", name);
  await page.getByRole("button", { name: "Connect", exact: true }).click();
  await expect(page.getByTestId("connection-status")).toHaveText("Verified");
  await expect(page.getByTestId("field-GITHUB_CONNECTION_ID")).toHaveText(name);
});
