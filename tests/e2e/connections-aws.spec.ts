import { CreateRepositoryCommand, ECRClient, PutImageCommand } from "@aws-sdk/client-ecr";
import { expect, test, type Page } from "@playwright/test";
import { motoEndpoint } from "../../playwright.config";
import { connectAwsWithAccessKeys, createAccessKey, motoAws, unique } from "../setup/aws-connection";
import { deployQuickCreateStack, quickCreateParameters } from "../setup/cloudformation";
import { chooseOption, uniqueEnvironmentName } from "../setup/environments";
import { waitForHydration } from "../setup/hydration";
import { MOTO_ACCOUNT_ID } from "../setup/moto-server";
import { signIn } from "../setup/sign-in";

// moto_server (playwright.config.ts) is the AWS account: the platform checks keys with STS and lists ECR there.
test.setTimeout(90_000);

const aws = motoAws;

/** An ECR repository in moto with one tagged image, as a CI pipeline would have pushed it. */
async function createRepositoryWithImage(name: string, tag: string) {
  const ecr = new ECRClient(aws);
  await ecr.send(new CreateRepositoryCommand({ repositoryName: name }));
  const manifest = {
    schemaVersion: 2,
    mediaType: "application/vnd.docker.distribution.manifest.v2+json",
    config: {
      mediaType: "application/vnd.docker.container.image.v1+json",
      size: 7023,
      digest: "sha256:b5b2b2c507a0944348e0303114d8d93aaaa081732b86451d9bce1f432a537bc7",
    },
    layers: [],
  };
  await ecr.send(
    new PutImageCommand({ repositoryName: name, imageManifest: JSON.stringify(manifest), imageTag: tag }),
  );
}

async function openCreatePage(page: Page, path: string) {
  await page.goto(path);
  await waitForHydration(page);
}

test("ada connects an AWS account with access keys, an ECR registry through it, and lists its repositories and tags", async ({
  page,
}) => {
  const key = await createAccessKey();
  const repository = unique("web");
  await createRepositoryWithImage(repository, "1.4.2");
  const accountName = `AWS ${unique("prod")}`;
  const registryName = `ECR ${unique("prod")}`;

  await signIn(page, "ada@example.com");
  await connectAwsWithAccessKeys(page, accountName, key);
  await expect(page.getByTestId("field-ACCOUNT_ID")).toHaveText(MOTO_ACCOUNT_ID);
  await expect(page.getByTestId("field-SECRET_ACCESS_KEY")).toHaveText(
    `Set, ends with ····${key.secretAccessKey.slice(-4)}`,
  );
  await expect(page.getByRole("table", { name: "Checks" })).toContainText(MOTO_ACCOUNT_ID);

  // The registry reaches ECR through the account just connected.
  await openCreatePage(page, "/settings/connections/create/container-registry");
  await page.getByRole("listitem").filter({ hasText: "Amazon ECR" }).click();
  await expect(page.getByRole("tab", { name: "Through an AWS connection" })).toHaveAttribute(
    "aria-selected",
    "true",
  );
  await waitForHydration(page);
  await page.getByLabel("Name").fill(registryName);
  await chooseOption(page, "AWS connection", accountName);
  await page.getByRole("button", { name: "Connect", exact: true }).click();
  await expect(page.getByTestId("connection-name")).toHaveText(registryName);
  await expect(page.getByTestId("connection-status")).toHaveText("Verified");
  await expect(page.getByTestId("field-AWS_CONNECTION_ID")).toHaveText(accountName);

  const repositories = page.getByRole("table", { name: "Repositories" });
  await expect(repositories.getByRole("link", { name: repository })).toBeVisible();
  await repositories.getByRole("link", { name: repository }).click();
  await expect(page.getByRole("region", { name: `Tags of ${repository}` })).toContainText("1.4.2");

  // The account is now used by the registry: deleting it is refused with what uses it.
  await page.goto("/settings/connections/list");
  await page.getByRole("link", { name: accountName }).click();
  await waitForHydration(page);
  await expect(page.getByRole("region", { name: "Used by" })).toContainText(`Connection ${registryName}`);
  await page.getByRole("button", { name: "Delete", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Delete connection" });
  await dialog.getByLabel(`Type ${accountName} to confirm`).fill(accountName);
  await dialog.getByRole("button", { name: "Delete" }).click();
  await expect(dialog.getByRole("alert")).toContainText(`${accountName} is in use by`);
  await expect(dialog.getByRole("alert")).toContainText(registryName);
});

test("ada connects an AWS account by the role its CloudFormation stack creates, and an environment runs in it", async ({
  page,
}) => {
  const accountName = `AWS role ${unique("staging")}`;
  await signIn(page, "ada@example.com");
  await openCreatePage(page, "/settings/connections/create/cloud-provider?kind=aws");
  const setup = page.getByRole("region", { name: "Role setup" });
  const launch = setup.getByRole("link", { name: "Launch the CloudFormation stack" });
  await expect(launch).toHaveAttribute("target", "_blank");
  const link = (await launch.getAttribute("href")) ?? "";
  const externalId = (await setup.getByTestId("external-id").textContent()) ?? "";
  expect(quickCreateParameters(link).get("param_ExternalId")).toBe(externalId);

  // What the user does in the AWS console: the stack creates the role trusting the platform with the external id.
  await deployQuickCreateStack({ link, endpoint: motoEndpoint });
  const roleName = quickCreateParameters(link).get("param_RoleName") ?? "";
  await page.getByLabel("Name").fill(accountName);
  await page.getByLabel("AWS account id").fill(MOTO_ACCOUNT_ID);
  await page.getByLabel("Role ARN").fill(`arn:aws:iam::${MOTO_ACCOUNT_ID}:role/${roleName}`);
  await page.getByRole("button", { name: "Connect", exact: true }).click();
  await expect(page.getByTestId("connection-name")).toHaveText(accountName);
  await expect(page.getByTestId("connection-status")).toHaveText("Verified");

  // A new environment runs in it; its overview shows the account and leads back to it.
  const environment = uniqueEnvironmentName("aws-account");
  await openCreatePage(page, "/environments/create");
  await page.getByLabel("Name").fill(environment);
  await chooseOption(page, "Cloud account", new RegExp(accountName));
  await page.getByRole("button", { name: "Create environment" }).click();
  await expect(page).toHaveURL(new RegExp(`/env/${environment}$`));
  const fact = page.getByRole("group", { name: "Cloud account" });
  await expect(fact).toContainText(accountName);
  await fact.getByRole("link", { name: accountName }).click();
  await expect(page.getByRole("region", { name: "Used by" })).toContainText(`Environment ${environment}`);
});
