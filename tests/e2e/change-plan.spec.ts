import { DescribeDBInstancesCommand, DescribeDBSnapshotsCommand, RDSClient } from "@aws-sdk/client-rds";
import { expect, test } from "@playwright/test";
import { motoAws, setUpAwsEnvironment } from "../setup/aws-connection";
import { waitForHydration } from "../setup/hydration";
import { createService, expectCompleted, openService } from "../setup/services";

// Issue 24 §1: a change whose plan replaces a database (its storage shrunk: RDS storage does not shrink) shows the
// plan the AWS driver computes and deploys only once the service's name is typed, keeping the data in a final
// snapshot. moto_server is the AWS account; the connection, the environment and the services are set up through
// the app's actions, and only the change is made in the browser.
test.setTimeout(240_000);

test("shrinking an AWS database's storage shows that it replaces the service and deletes its data, deploys once its name is typed, and keeps a final snapshot", async ({
  page,
}) => {
  const environment = await setUpAwsEnvironment(page, "aws-plan");
  // The network first: the database runs inside it.
  await openService(page, createService(page, environment, "network", "main"));
  await expectCompleted(page);
  await openService(page, createService(page, environment, "database", "ledger-db", { storageGb: 30 }));
  await expectCompleted(page);

  await page.getByRole("tab", { name: "Configuration", exact: true }).click();
  await waitForHydration(page);
  await page.getByLabel("Storage (GB)").fill("20");
  // Before saving, the form says how the change would deploy.
  await expect(page.getByTestId("change-plan-preview")).toContainText(
    "Deploying: Replaces the service and deletes its data (Storage (GB): 30 → 20, replaces the service; loses its data, its endpoint).",
  );
  await page.getByRole("button", { name: "Save and deploy" }).click();

  // Nothing deployed yet: the plan, and the name to type.
  const plan = page.getByTestId("change-plan");
  await expect(plan).toContainText("This change replaces the service and deletes its data");
  await expect(plan).toContainText("Storage (GB): 30 → 20 (replaces the service)");
  await expect(plan).toContainText("Lost with the service it replaces: its data, its endpoint");
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
  // The 30 GB instance's data is kept in its final snapshot, in the account.
  const { DBSnapshots = [] } = await rds.send(new DescribeDBSnapshotsCommand({}));
  expect(
    DBSnapshots.filter(
      (snapshot) =>
        snapshot.DBSnapshotIdentifier?.startsWith("ledger-db") &&
        snapshot.DBSnapshotIdentifier.includes("-final-"),
    ).map((snapshot) => snapshot.AllocatedStorage),
  ).toEqual([30]);

  // Its delete dialog says what goes from the account and that a final snapshot is kept.
  await page.getByRole("button", { name: "Delete", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Delete service" });
  await expect(dialog).toContainText("Deleted from the AWS account: its RDS instance with its data");
  await expect(dialog).toContainText("A final snapshot of its data is kept in the AWS account");
  await expect(dialog.getByRole("button", { name: "Delete service" })).toBeDisabled();
});
