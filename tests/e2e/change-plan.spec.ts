import { DescribeDBInstancesCommand, RDSClient } from "@aws-sdk/client-rds";
import { expect, test, type Page } from "@playwright/test";
import { connectAwsWithAccessKeys, createAccessKey, motoAws, unique } from "../setup/aws-connection";
import { chooseOption, uniqueEnvironmentName } from "../setup/environments";
import { waitForHydration } from "../setup/hydration";
import { signIn } from "../setup/sign-in";

// Issue 24 §1: a change whose plan replaces a database (its storage shrunk: RDS storage does not shrink) shows the
// plan the AWS driver computes and deploys only once the service's name is typed. moto_server is the AWS account.
test.setTimeout(240_000);

async function expectCompleted(page: Page) {
  await expect(page.getByTestId("service-title").locator("xpath=..")).toContainText("Completed", {
    timeout: 120_000,
  });
}

async function createService(page: Page, environment: string, serviceType: string, name: string) {
  await page.goto(`/env/${environment}/services/${serviceType}/create`);
  await waitForHydration(page);
  await page.getByRole("textbox", { name: "Name", exact: true }).fill(name);
  if (serviceType === "database") await page.getByLabel("Storage (GB)").fill("30");
  await page.getByRole("button", { name: "Create", exact: true }).click();
  await expect(page.getByTestId("service-title")).toHaveText(name);
  await waitForHydration(page);
  await expectCompleted(page);
}

test("shrinking an AWS database's storage shows that it replaces the service and deletes its data, and deploys once its name is typed", async ({
  page,
}) => {
  const key = await createAccessKey();
  const accountName = `AWS ${unique("plan")}`;
  const environment = uniqueEnvironmentName("aws-plan");
  await signIn(page, "ada@example.com");
  await connectAwsWithAccessKeys(page, accountName, key);
  await page.goto("/environments/create");
  await waitForHydration(page);
  await page.getByLabel("Name").fill(environment);
  await chooseOption(page, "Cloud account", new RegExp(accountName));
  await page.getByRole("button", { name: "Create environment" }).click();
  await expect(page).toHaveURL(new RegExp(`/env/${environment}$`));

  await createService(page, environment, "network", "main");
  await createService(page, environment, "database", "ledger-db");

  await page.getByRole("tab", { name: "Configuration", exact: true }).click();
  await waitForHydration(page);
  await page.getByLabel("Storage (GB)").fill("20");
  // Before saving, the form says how the change would deploy.
  await expect(page.getByTestId("change-plan-preview")).toContainText(
    "Deploying: Replaces the service and deletes its data (replaced because of Storage (GB); loses its data, its endpoint).",
  );
  await page.getByRole("button", { name: "Save and deploy" }).click();

  // Nothing deployed yet: the plan, and the name to type.
  const plan = page.getByTestId("change-plan");
  await expect(plan).toContainText("This change replaces the service and deletes its data");
  await expect(plan).toContainText("Replaced because of: Storage (GB)");
  await expect(plan).toContainText("its data, its endpoint");
  await expect(page.getByTestId("service-title").locator("xpath=..")).toContainText("Completed");

  await plan.getByLabel("Type ledger-db to confirm").fill("ledger-db");
  await plan.getByRole("button", { name: "Replace and deploy" }).click();
  await expect(plan).toBeHidden();
  // The replacement deletes the 30 GB instance, then creates one of 20 GB.
  const rds = new RDSClient(motoAws);
  const ledgerStorage = async () => {
    const { DBInstances = [] } = await rds.send(new DescribeDBInstancesCommand({}));
    return DBInstances.filter((instance) => instance.DBInstanceIdentifier?.startsWith("ledger-db")).map(
      (instance) => instance.AllocatedStorage,
    );
  };
  await expect.poll(ledgerStorage, { timeout: 120_000 }).toEqual([20]);
  await expectCompleted(page);

  // Its delete dialog says what goes from the account and that a final snapshot is kept.
  await page.getByRole("button", { name: "Delete", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Delete service" });
  await expect(dialog).toContainText("Deleted from the AWS account: its RDS instance with its data");
  await expect(dialog).toContainText("A final snapshot of its data is kept in the AWS account");
  await expect(dialog.getByRole("button", { name: "Delete service" })).toBeDisabled();
});
