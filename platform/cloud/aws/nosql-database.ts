import type { KeySchemaElement, TableDescription } from "@aws-sdk/client-dynamodb";
import type * as DynamoDbSdk from "@aws-sdk/client-dynamodb";
import type { ServiceConfig } from "#contract/service-configs";
import { configOf } from "../configs";
import { ownedBy, tagList, tagRecord, tagsOf } from "./naming";
import type { ApplyResult, DestroyResult, ProvisionContext, Provisioner } from "./provisioner";
import type { Observation } from "../driver";
import {
  ProvisionError,
  runSteps,
  unlessMissing,
  type State,
  type Step,
  failingAs,
  changePlanOf,
} from "./common";

/**
 * A NoSQL database: a DynamoDB table with the configured keys (string attributes) and billing mode. Billing mode
 * and capacity change in place (AWS allows switching the billing mode once a day: its refusal is passed on); a
 * table's keys are fixed at creation, so new keys replace the table, and a new table name creates the new table
 * before the old one is deleted; either is refused while the old table holds items (a replacement never deletes
 * data). Deleting the service (which its user confirmed) deletes the table with its items. No secret: workloads reach the table through their IAM roles.
 */

const POLL_MS = 5_000;
const MISSING = ["ResourceNotFoundException"];

type Dynamo = { client: DynamoDbSdk.DynamoDBClient; sdk: typeof DynamoDbSdk };

async function dynamoOf(context: ProvisionContext): Promise<Dynamo> {
  return { client: await context.aws.dynamodb(), sdk: await import("@aws-sdk/client-dynamodb") };
}

async function describeTable(dynamo: Dynamo, name: string): Promise<TableDescription | undefined> {
  const answer = await unlessMissing(
    () => dynamo.client.send(new dynamo.sdk.DescribeTableCommand({ TableName: name })),
    ...MISSING,
  );
  return answer?.Table;
}

async function ownsTable(
  dynamo: Dynamo,
  context: ProvisionContext,
  table: TableDescription,
): Promise<boolean> {
  const { Tags } = await dynamo.client.send(
    new dynamo.sdk.ListTagsOfResourceCommand({ ResourceArn: table.TableArn ?? "" }),
  );
  return ownedBy(context, tagRecord(Tags));
}

function keySchemaOf(config: ServiceConfig<"nosql-database">): KeySchemaElement[] {
  return [
    { AttributeName: config.partitionKey, KeyType: "HASH" },
    ...(config.sortKey ? [{ AttributeName: config.sortKey, KeyType: "RANGE" as const }] : []),
  ];
}

const keysText = (keys: KeySchemaElement[] | undefined) =>
  (keys ?? []).map((key) => `${key.KeyType}:${key.AttributeName}`).join(",");

function throughputOf(config: ServiceConfig<"nosql-database">) {
  return { ReadCapacityUnits: config.readCapacityUnits, WriteCapacityUnits: config.writeCapacityUnits };
}

/** A table without a billing mode summary was created before on-demand existed: provisioned. */
const billingModeOf = (table: TableDescription) => table.BillingModeSummary?.BillingMode ?? "PROVISIONED";

/**
 * Refuses to replace a table that holds items: a replacement deletes the old table, and its data must never go
 * silently. `setting` is what the user keeps instead ("the keys", "the table name"). DescribeTable's ItemCount lags
 * by hours, so a Scan counts (one page: enough to know the table is not empty).
 */
async function refuseReplacingNonEmpty(dynamo: Dynamo, name: string, setting: string): Promise<void> {
  const answer = await unlessMissing(
    () => dynamo.client.send(new dynamo.sdk.ScanCommand({ TableName: name, Select: "COUNT" })),
    ...MISSING,
  );
  const count = answer?.Count ?? 0;
  if (count === 0 && !answer?.LastEvaluatedKey) return;
  const items = `${answer?.LastEvaluatedKey ? "more than " : ""}${count} item${count === 1 ? "" : "s"}`;
  throw new ProvisionError(
    `The table ${name} holds ${items}; a replacement would delete ${count === 1 ? "it" : "them"}. Empty it first or keep ${setting}.`,
    "TableNotEmpty",
    `Replacing the table ${name}`,
  );
}

/**
 * Deletes the table `state[key]` names and waits until it is gone. The deletion of the service (which its user
 * confirmed) deletes the table with its items; a replacement (`replacing`) refuses a table that holds any.
 */
function deleteTableStep(
  dynamo: Dynamo,
  context: ProvisionContext,
  key: string,
  progress: string,
  { replacing }: { replacing: boolean },
): Step {
  return {
    progress,
    async run(state) {
      const name = state[key];
      if (!name) return;
      const table = await describeTable(dynamo, name);
      if (!table) return { state: { [key]: "" } };
      if (table.TableStatus !== "DELETING") {
        if (replacing) await refuseReplacingNonEmpty(dynamo, name, "the table name");
        await unlessMissing(
          () => dynamo.client.send(new dynamo.sdk.DeleteTableCommand({ TableName: name })),
          ...MISSING,
        );
        context.log("info", `Deleting DynamoDB table ${name}`);
      }
      return { waitMs: POLL_MS, progress: `Waiting for the table ${name} to be deleted` };
    },
  };
}

async function apply(context: ProvisionContext): Promise<ApplyResult> {
  const config = configOf(context.resource, "nosql-database");
  const name = config.tableName;
  const dynamo = await dynamoOf(context);
  const billingMode = config.billingMode === "provisioned" ? "PROVISIONED" : "PAY_PER_REQUEST";
  const steps: Step[] = [
    {
      progress: `Creating the table ${name}`,
      async run(state) {
        const previous: State =
          state.tableName && state.tableName !== name ? { previousTableName: state.tableName } : {};
        const table = await describeTable(dynamo, name);
        if (table && !(await ownsTable(dynamo, context, table))) {
          throw new ProvisionError(
            `a DynamoDB table named ${name} already exists in this account and region and was not created for this service; choose another table name`,
            "ResourceInUseException",
          );
        }
        if (table?.TableStatus === "DELETING") {
          return { waitMs: POLL_MS, progress: `Waiting for the old table ${name} to be deleted` };
        }
        if (table && keysText(table.KeySchema) !== keysText(keySchemaOf(config))) {
          await refuseReplacingNonEmpty(dynamo, name, "the keys");
          await dynamo.client.send(new dynamo.sdk.DeleteTableCommand({ TableName: name }));
          context.log("warn", `Deleting DynamoDB table ${name}: its keys change, so it is replaced`);
          return {
            waitMs: POLL_MS,
            progress: `Replacing the table ${name}: deleting the old one (its keys change)`,
          };
        }
        if (table) return { state: { ...previous, tableName: name, tableArn: table.TableArn ?? "" } };
        // Refused before the new table exists, so that keeping the old name leaves nothing behind.
        if (previous.previousTableName) {
          await refuseReplacingNonEmpty(dynamo, previous.previousTableName, "the table name");
        }
        const keys = keySchemaOf(config);
        const created = await dynamo.client.send(
          new dynamo.sdk.CreateTableCommand({
            TableName: name,
            KeySchema: keys,
            AttributeDefinitions: keys.map((key) => ({
              AttributeName: key.AttributeName,
              AttributeType: "S",
            })),
            BillingMode: billingMode,
            ...(billingMode === "PROVISIONED" ? { ProvisionedThroughput: throughputOf(config) } : {}),
            Tags: tagList(tagsOf(context, "table", name)),
          }),
        );
        context.log("info", `Created DynamoDB table ${name} (${keysText(keys)}, ${billingMode})`);
        return {
          state: { ...previous, tableName: name, tableArn: created.TableDescription?.TableArn ?? "" },
          waitMs: 0,
        };
      },
    },
    {
      progress: "Waiting for the table to become active",
      async run() {
        const table = await describeTable(dynamo, name);
        if (!table) throw new ProvisionError(`the table ${name} disappeared while it was being created`);
        if (table.TableStatus === "ACTIVE") return;
        if (table.TableStatus === "CREATING" || table.TableStatus === "UPDATING") {
          return {
            waitMs: POLL_MS,
            progress: `Waiting for the table to become active (${table.TableStatus})`,
          };
        }
        throw new ProvisionError(`the table ${name} is ${table.TableStatus ?? "in an unknown state"}`);
      },
    },
    {
      progress: "Updating the billing mode and capacity",
      async run() {
        const table = await describeTable(dynamo, name);
        if (!table) return;
        const held = table.ProvisionedThroughput;
        const capacityDiffers =
          billingMode === "PROVISIONED" &&
          (held?.ReadCapacityUnits !== config.readCapacityUnits ||
            held?.WriteCapacityUnits !== config.writeCapacityUnits);
        if (billingModeOf(table) === billingMode && !capacityDiffers) return;
        await dynamo.client.send(
          new dynamo.sdk.UpdateTableCommand({
            TableName: name,
            BillingMode: billingMode,
            ...(billingMode === "PROVISIONED" ? { ProvisionedThroughput: throughputOf(config) } : {}),
          }),
        );
        context.log("info", `Updated DynamoDB table ${name}: ${billingMode}`);
        return { waitMs: POLL_MS, progress: "Waiting for the table update" };
      },
    },
    deleteTableStep(dynamo, context, "previousTableName", "Deleting the renamed table", { replacing: true }),
  ];
  const result = await runSteps(steps, context.state);
  if (!result.done) return result;
  const table = await describeTable(dynamo, name);
  const tableArn = table?.TableArn ?? result.state.tableArn ?? "";
  return {
    done: true,
    state: { ...result.state, tableArn },
    endpoint: tableArn,
    secrets: {},
    outputs: { tableName: name, tableArn },
  };
}

async function destroy(context: ProvisionContext): Promise<DestroyResult> {
  const dynamo = await dynamoOf(context);
  const { tableName } = configOf(context.resource, "nosql-database");
  const result = await runSteps(
    [
      {
        // A call that crashed before its state was saved may have created the table; only ours is deleted.
        progress: "Finding the table",
        async run(state) {
          if (state.tableName) return;
          const table = await describeTable(dynamo, tableName);
          const ours = table !== undefined && (await ownsTable(dynamo, context, table));
          return { state: { tableName: ours ? tableName : "" } };
        },
      },
      deleteTableStep(dynamo, context, "tableName", "Deleting the table", { replacing: false }),
      deleteTableStep(dynamo, context, "previousTableName", "Deleting the renamed table", {
        replacing: false,
      }),
    ],
    context.state,
  );
  return result.done ? { done: true } : result;
}

async function observe(context: ProvisionContext): Promise<Observation> {
  const name = context.state.tableName;
  if (!name) return { state: "ok" };
  const table = await describeTable(await dynamoOf(context), name);
  if (!table) {
    return {
      state: "missing",
      message: `The DynamoDB table ${name} no longer exists: it was deleted outside the console`,
    };
  }
  if (table.TableStatus === "ACTIVE" || table.TableStatus === "UPDATING") return { state: "ok" };
  return {
    state: "degraded",
    message: `The DynamoDB table ${name} is ${table.TableStatus ?? "in an unknown state"}`,
  };
}

export const nosqlDatabaseProvisioner: Provisioner = {
  secretAttributeNames: () => [],
  apply,
  destroy,
  plan: (before, after) =>
    changePlanOf(before, after, {
      replace: ["config.tableName", "config.partitionKey", "config.sortKey"],
      inPlace: ["config.billingMode", "config.readCapacityUnits", "config.writeCapacityUnits"],
    }),
  observe: (context) => failingAs("Checking the table", () => observe(context)),
};
