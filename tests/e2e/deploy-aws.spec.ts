import {
  CloudWatchLogsClient,
  CreateLogGroupCommand,
  CreateLogStreamCommand,
  PutLogEventsCommand,
} from "@aws-sdk/client-cloudwatch-logs";
import { DescribeDBInstancesCommand, RDSClient } from "@aws-sdk/client-rds";
import { GetQueueUrlCommand, ListQueuesCommand, SQSClient } from "@aws-sdk/client-sqs";
import { expect, test } from "@playwright/test";
import { motoAws, setUpAwsEnvironment, unique } from "../setup/aws-connection";
import { waitForHydration } from "../setup/hydration";
import { createService, expectCompleted, openService } from "../setup/services";
import { readArchive } from "../../platform/terraform/archive";
import {
  importIdsByType,
  parseProject,
  unresolvedImports,
  unresolvedReferences,
} from "../../platform/testing/terraform-checks";

// moto_server (playwright.config.ts) is the AWS account: the platform's AWS driver creates what each service is
// there, through the connection's credentials, and reads it back. The connection, the environment and the
// services are set up through the app's actions (their screens have specs of their own).
test.setTimeout(240_000);

test("ada deploys a network, a database and a queue into her AWS account, reads them back, deletes the database and exports the rest as Terraform", async ({
  page,
}) => {
  const environment = await setUpAwsEnvironment(page, "aws-deploy");

  // The network first: the database and the queue run inside it.
  await openService(page, createService(page, environment, "network", "main"));
  await expectCompleted(page);

  await openService(page, createService(page, environment, "database", "orders-db"));
  await expectCompleted(page);
  const databaseEndpoint = (await page.getByTestId("overview-endpoint").textContent()) ?? "";
  const { DBInstances = [] } = await new RDSClient(motoAws).send(new DescribeDBInstancesCommand({}));
  const instance = DBInstances.find((candidate) =>
    databaseEndpoint.startsWith(candidate.Endpoint?.Address ?? "-"),
  );
  expect(instance, `an RDS instance answers at ${databaseEndpoint}`).toBeDefined();
  const databaseIdentifier = instance?.DBInstanceIdentifier ?? "";

  // PostgreSQL writes to the log group RDS exports to; the logs tab reads it from CloudWatch.
  const logs = new CloudWatchLogsClient(motoAws);
  const logGroupName = `/aws/rds/instance/${databaseIdentifier}/postgresql`;
  await logs.send(new CreateLogGroupCommand({ logGroupName })).catch(() => undefined);
  await logs.send(new CreateLogStreamCommand({ logGroupName, logStreamName: databaseIdentifier }));
  const logLine = `LOG:  database system is ready to accept connections (${unique("e2e")})`;
  await logs.send(
    new PutLogEventsCommand({
      logGroupName,
      logStreamName: databaseIdentifier,
      logEvents: [{ timestamp: Date.now(), message: logLine }],
    }),
  );
  await page.getByRole("tab", { name: "Logs", exact: true }).click();
  await expect(page.getByRole("log", { name: "Live logs" })).toContainText(logLine, { timeout: 30_000 });

  await openService(page, createService(page, environment, "queue", "jobs"));
  await expectCompleted(page);
  const queueEndpoint = (await page.getByTestId("overview-endpoint").textContent()) ?? "";
  const sqs = new SQSClient(motoAws);
  const queueName = queueEndpoint.split("/").pop() ?? "";
  expect((await sqs.send(new GetQueueUrlCommand({ QueueName: queueName }))).QueueUrl).toBe(queueEndpoint);

  // The deployment's log tells what it created in AWS.
  await page.getByRole("tab", { name: "Logs", exact: true }).click();
  await expect(page.getByRole("log", { name: "Live logs" })).toContainText(queueName);

  // The list shows the real endpoints.
  await page.goto(`/env/${environment}/services`);
  await waitForHydration(page);
  await expect(page.getByRole("row").filter({ hasText: "jobs" })).toContainText(queueEndpoint);

  // Deleting the database tears it down in AWS, then the service goes.
  await page.getByRole("link", { name: "orders-db" }).click();
  await waitForHydration(page);
  await page.getByRole("button", { name: "Delete", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Delete service" });
  await dialog.getByLabel("Type orders-db to confirm").fill("orders-db");
  await dialog.getByRole("button", { name: "Delete service" }).click();
  await expect(page).toHaveURL(new RegExp(`/env/${environment}/services$`));
  await expect(page.getByRole("alert").filter({ hasText: "Deleting orders-db" })).toBeVisible();
  await expect(page.getByRole("link", { name: "orders-db" })).toHaveCount(0, { timeout: 120_000 });
  const remaining = await new RDSClient(motoAws).send(new DescribeDBInstancesCommand({}));
  expect(remaining.DBInstances?.map((db) => db.DBInstanceIdentifier)).not.toContain(databaseIdentifier);
  expect((await sqs.send(new ListQueuesCommand({}))).QueueUrls).toContain(queueEndpoint);

  // What is left exports as Terraform that parses: the network and the queue, each imported by its AWS id.
  await page.goto(`/env/${environment}`);
  await waitForHydration(page);
  await page.getByRole("button", { name: "Export as Terraform" }).click();
  const download = page.getByRole("link", { name: "Download Terraform" });
  await expect(download).toBeVisible({ timeout: 60_000 });
  const response = await page.request.get((await download.getAttribute("href")) ?? "");
  expect(response.status()).toBe(200);
  const folder = `terraform-${environment}-${motoAws.region}/`;
  const archive = readArchive(new Uint8Array(await response.body()));
  const project = await parseProject(
    Object.fromEntries(Object.entries(archive).map(([path, text]) => [path.slice(folder.length), text])),
  );
  expect(unresolvedReferences(project)).toEqual([]);
  expect(unresolvedImports(project)).toEqual([]);
  const imported = importIdsByType(project);
  expect(imported.aws_sqs_queue).toContain(queueEndpoint);
  expect(imported.aws_vpc).toHaveLength(1);
  expect(Object.values(archive).join("\n")).not.toContain(databaseIdentifier);
});
