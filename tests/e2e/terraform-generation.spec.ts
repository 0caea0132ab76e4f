import { expect, test, type Page } from "@playwright/test";
import { motoEndpoint } from "../../playwright.config";
import { readArchive } from "../../platform/terraform/archive";
import {
  importIdsByType,
  parseProject,
  unresolvedImports,
  unresolvedReferences,
} from "../../platform/testing/terraform-checks";
import { seedAwsAccount } from "../setup/aws-account";
import { deployQuickCreateStack, quickCreateParameters } from "../setup/cloudformation";
import { waitForHydration } from "../setup/hydration";
import { signIn, submitLogin } from "../setup/sign-in";

const accountId = "123456789012";
const awsConsole = "https://console.aws.amazon.com/**";

/** The AWS console is not reachable from tests: its tab gets a stand-in page, and the link is kept. */
async function standInForAwsConsole(page: Page) {
  await page
    .context()
    .route(awsConsole, (route) =>
      route.fulfill({ contentType: "text/html", body: "<title>AWS console</title><h1>AWS console</h1>" }),
    );
}

/**
 * Signs in on the way to the connect page, which has the branded layout rather than the app shell, and waits
 * until the page is interactive: the account id is checked while typing (half a second after the last key).
 */
async function openConnectPage(page: Page) {
  await page.goto("/cloud-connection");
  await submitLogin(page, "ada@example.com");
  await expect(page.getByRole("heading", { name: "Connect your AWS account" })).toBeVisible();
  await waitForHydration(page);
  await expectAccountIdCheckedWhileTyping(page);
}

async function expectAccountIdCheckedWhileTyping(page: Page) {
  const accountIdField = page.getByLabel("Account ID");
  const message = page.getByText("Value must be a 12-digit number.");
  await accountIdField.pressSequentially("12345");
  await expect(message).toBeVisible();
  // Emptying the field clears the error.
  await accountIdField.fill("");
  await expect(message).toHaveCount(0);
}

async function connect(page: Page, region: string) {
  await page.getByLabel("Account ID").fill(accountId);
  await page.getByLabel("Region").selectOption(region);
  const popup = page.waitForEvent("popup");
  await page.getByRole("button", { name: "Connect" }).click();
  const console = await popup;
  await console.waitForLoadState();
  const link = console.url();
  expect(link).toMatch(
    /^https:\/\/console\.aws\.amazon\.com\/cloudformation\/home\?region=.+#\/stacks\/quickcreate\?/,
  );
  await console.close();
  return link;
}

test("connect → generate → download: the archive holds Terraform for the account's resources", async ({
  page,
}) => {
  test.setTimeout(180_000);
  const region = "eu-west-1";
  const seeded = await seedAwsAccount({
    endpoint: motoEndpoint,
    region,
    suffix: `e2e${Date.now().toString(36)}`,
  });
  await standInForAwsConsole(page);
  await openConnectPage(page);
  await expect(page.getByTestId("tutorial-video")).toBeVisible();
  await expect(page.getByText("© ")).toContainText("Cloud Console. All rights reserved.");
  const link = await connect(page, region);

  // The page offers the same link in case the browser blocked the new tab.
  const notice = page.getByTestId("aws-redirect-notice");
  await expect(notice).toContainText("if you are not redirected to AWS");
  await expect(notice.getByRole("link", { name: "Click here" })).toHaveAttribute("href", link);
  await expect(page.getByRole("heading", { name: "Generating Terraform" })).toBeVisible();
  await expect(page.getByText("This may take a few minutes.")).toBeVisible();
  await expect(page.getByRole("button", { name: "Generating Terraform" })).toBeDisabled();
  expect(await page.evaluate(() => localStorage.getItem("iac-region"))).toBe(region);
  const jobId = await page.evaluate(() => localStorage.getItem("persist:job-id"));
  expect(jobId).toMatch(/^[0-9a-f-]{36}$/);

  await deployQuickCreateStack({ link, endpoint: motoEndpoint });

  await expect(page.getByRole("heading", { name: "Terraform generated successfully" })).toBeVisible({
    timeout: 90_000,
  });
  await expect(
    page.getByText("The generated terraform file will be available for download for 24 hours from now."),
  ).toBeVisible();
  const download = page.getByRole("link", { name: "Download Terraform" });
  const href = (await download.getAttribute("href")) ?? "";
  expect(href).toContain(`/files/terraform/${jobId}.zip?expires=`);
  await expect(download).toHaveAttribute("target", "_blank");

  const tab = page.waitForEvent("popup");
  await download.click();
  await (await tab).close();
  await expect(page.getByRole("button", { name: "Generate new Terraform" })).toBeVisible();
  await expect(page.getByTestId("promo-carousel")).toHaveCount(0);
  await expect(page.getByTestId("tutorial-video")).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem("iac-region"))).toBeNull();

  const response = await page.request.get(href);
  expect(response.status()).toBe(200);
  expect(response.headers()["content-disposition"]).toBe(
    `attachment; filename="terraform-${accountId}-${region}.zip"`,
  );
  const archive = readArchive(new Uint8Array(await response.body()));
  const root = `terraform-${accountId}-${region}/`;
  expect(Object.keys(archive).every((path) => path.startsWith(root))).toBe(true);
  const files = Object.fromEntries(
    Object.entries(archive).map(([path, text]) => [path.slice(root.length), text]),
  );
  expect(files["README.md"]).toContain(`# Terraform for AWS account ${accountId} in ${region}`);
  for (const folder of [
    "vpc",
    "ec2",
    "s3",
    "rds",
    "elasticache",
    "dynamodb",
    "sqs",
    "sns",
    "lambda",
    "ecr",
    "eks",
    "elbv2",
    "iam",
    "route53",
    "acm",
  ]) {
    expect(Object.keys(files)).toEqual(
      expect.arrayContaining([`${folder}/provider.tf`, `${folder}/imports.tf`, `${folder}/outputs.tf`]),
    );
  }
  const project = await parseProject(files);
  expect(unresolvedReferences(project)).toEqual([]);
  expect(unresolvedImports(project)).toEqual([]);
  const imported = importIdsByType(project);
  for (const [type, ids] of Object.entries(seeded.importIds)) {
    expect(imported[type], type).toEqual(expect.arrayContaining(ids));
  }
  expect(Object.values(files).join("\n")).not.toContain(quickCreateParameters(link).get("param_RoleName"));

  await page.getByRole("button", { name: "Generate new Terraform" }).click();
  await expect(page.getByRole("heading", { name: "Connect your AWS account" })).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem("persist:job-id"))).toBeNull();
});

test("a role that cannot be assumed fails the job, and its details show in an error toast", async ({
  page,
}) => {
  test.setTimeout(120_000);
  await standInForAwsConsole(page);
  await openConnectPage(page);

  // Checked while typing (openConnectPage), and on submit: both fields are required.
  await page.getByRole("button", { name: "Connect" }).click();
  await expect(page.getByText("Account ID is a required field")).toBeVisible();
  await expect(page.getByText("Region is a required field")).toBeVisible();

  const link = await connect(page, "us-west-2");
  const roleName = quickCreateParameters(link).get("param_RoleName") ?? "";
  await expect(page.getByRole("heading", { name: "Generating Terraform" })).toBeVisible();
  // A role made for another generation: its trust policy asks for a different external id.
  await deployQuickCreateStack({
    link,
    endpoint: motoEndpoint,
    externalId: "an-external-id-of-another-generation",
  });

  await expect(
    page.getByText(
      `The role ${roleName} in account ${accountId} does not require this generation's external id, so Cloud Console will not use it.`,
      { exact: false },
    ),
  ).toBeVisible({ timeout: 60_000 });
  await expect(page.getByRole("heading", { name: "Connect your AWS account" })).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem("persist:job-id"))).toBeNull();
});

test("the marketplace in the app shell offers the generator", async ({ page }) => {
  await signIn(page, "ada@example.com", "/environments");
  await page.getByRole("link", { name: "Marketplace" }).click();
  await expect(page).toHaveURL(/\/mp$/);
  await page.getByRole("link", { name: "Generate Terraform" }).click();
  await expect(page).toHaveURL(/\/mp\/generate-terraform$/);
  await expect(page.getByRole("heading", { name: "Connect your AWS account" })).toBeVisible();
  await expect(
    page.getByLabel("Region").locator("option", { hasText: "US East (N. Virginia) (us-east-1)" }),
  ).toHaveCount(1);
});
