import { randomUUID } from "node:crypto";
import {
  CreateTableCommand,
  DeleteItemCommand,
  DeleteTableCommand,
  DescribeTableCommand,
  ListTablesCommand,
  PutItemCommand,
  ScanCommand,
} from "@aws-sdk/client-dynamodb";
import { describe, expect, it } from "vitest";
import { MOTO_ACCOUNT_ID } from "../../../tests/setup/moto-server";
import { nosqlDatabaseProvisioner } from "./nosql-database";
import {
  applyUntilDone,
  destroyUntilDone,
  resourceOf,
  setUpMoto,
  taggedResources,
  testRegion,
  testService,
} from "../../testing/aws";
import { expectListedSecrets } from "../../testing/aws-provisioning";

const { aws } = setUpMoto({ warmUp: true });

const uniqueTable = (label: string) => `${label}-${randomUUID().slice(0, 8)}`;
const tableArn = (name: string) => `arn:aws:dynamodb:${testRegion}:${MOTO_ACCOUNT_ID}:table/${name}`;

async function describe_(name: string) {
  return (await (await aws.dynamodb()).send(new DescribeTableCommand({ TableName: name }))).Table;
}

async function itemsIn(name: string) {
  return (await (await aws.dynamodb()).send(new ScanCommand({ TableName: name }))).Items ?? [];
}

async function tableNames(prefix: string) {
  const { TableNames = [] } = await (await aws.dynamodb()).send(new ListTablesCommand({}));
  return TableNames.filter((name) => name.startsWith(prefix));
}

describe("nosql database provisioner", () => {
  it("creates an on-demand table, switches it to provisioned capacity, replaces it for new keys and a new name, and deletes it", async () => {
    const name = uniqueTable("orders");
    const service = testService(aws, resourceOf("nosql-database", { tableName: name }));
    const created = await applyUntilDone(nosqlDatabaseProvisioner, service);
    expectListedSecrets(nosqlDatabaseProvisioner, service.resource, created.secrets);

    expect(created.endpoint).toBe(tableArn(name));
    expect(created.outputs).toEqual({ tableName: name, tableArn: tableArn(name) });
    const table = await describe_(name);
    expect(table?.KeySchema).toEqual([{ AttributeName: "id", KeyType: "HASH" }]);
    expect(table?.BillingModeSummary?.BillingMode).toBe("PAY_PER_REQUEST");
    expect(await taggedResources(aws, service.resource.id)).toEqual([tableArn(name)]);

    const onDemand = service.resource;
    service.resource = {
      ...onDemand,
      config: { ...onDemand.config, billingMode: "provisioned", readCapacityUnits: 7, writeCapacityUnits: 3 },
    };
    expect(nosqlDatabaseProvisioner.plan(onDemand, service.resource)).toEqual({
      inPlace: ["config.billingMode", "config.readCapacityUnits", "config.writeCapacityUnits"],
      replace: [],
    });
    await applyUntilDone(nosqlDatabaseProvisioner, service);
    const provisioned = await describe_(name);
    expect(provisioned?.BillingModeSummary?.BillingMode).toBe("PROVISIONED");
    expect(provisioned?.ProvisionedThroughput).toMatchObject({ ReadCapacityUnits: 7, WriteCapacityUnits: 3 });

    await (
      await aws.dynamodb()
    ).send(new PutItemCommand({ TableName: name, Item: { id: { S: "order-1" } } }));
    const singleKey = service.resource;
    service.resource = { ...singleKey, config: { ...singleKey.config, sortKey: "createdAt" } };
    expect(nosqlDatabaseProvisioner.plan(singleKey, service.resource)).toEqual({
      inPlace: [],
      replace: ["config.sortKey"],
    });
    // The table holds an item: a replacement would delete it, so it is refused and the item stays.
    await expect(nosqlDatabaseProvisioner.apply(service.context())).rejects.toThrow(
      `The table ${name} holds 1 item; a replacement would delete it. Empty it first or keep the keys.`,
    );
    expect((await describe_(name))?.KeySchema).toEqual([{ AttributeName: "id", KeyType: "HASH" }]);
    expect(await itemsIn(name)).toEqual([{ id: { S: "order-1" } }]);

    // Once its owner emptied it, the table is replaced for its new keys.
    await (
      await aws.dynamodb()
    ).send(new DeleteItemCommand({ TableName: name, Key: { id: { S: "order-1" } } }));
    const rekeyed = await applyUntilDone(nosqlDatabaseProvisioner, service);
    expect(rekeyed.progress).toContain(`Replacing the table ${name}: deleting the old one (its keys change)`);
    const replaced = await describe_(name);
    expect(replaced?.KeySchema).toEqual([
      { AttributeName: "id", KeyType: "HASH" },
      { AttributeName: "createdAt", KeyType: "RANGE" },
    ]);
    expect(replaced?.ItemCount).toBe(0);

    const renamedTable = uniqueTable("orders-renamed");
    const named = service.resource;
    service.resource = { ...named, config: { ...named.config, tableName: renamedTable } };
    expect(nosqlDatabaseProvisioner.plan(named, service.resource).replace).toEqual(["config.tableName"]);
    // A new name is a new table: the old one's items would go with it.
    const dynamodb = await aws.dynamodb();
    for (const id of ["order-2", "order-3"]) {
      await dynamodb.send(
        new PutItemCommand({ TableName: name, Item: { id: { S: id }, createdAt: { S: "2026-11-27" } } }),
      );
    }
    await expect(nosqlDatabaseProvisioner.apply(service.context())).rejects.toThrow(
      `The table ${name} holds 2 items; a replacement would delete them. Empty it first or keep the table name.`,
    );
    expect(await tableNames("orders-")).toEqual([name]);
    expect(await itemsIn(name)).toHaveLength(2);
    for (const id of ["order-2", "order-3"]) {
      await dynamodb.send(
        new DeleteItemCommand({ TableName: name, Key: { id: { S: id }, createdAt: { S: "2026-11-27" } } }),
      );
    }
    const renamed = await applyUntilDone(nosqlDatabaseProvisioner, service);
    expect(renamed.endpoint).toBe(tableArn(renamedTable));
    expect(await tableNames("orders-")).toEqual([renamedTable]);

    await destroyUntilDone(nosqlDatabaseProvisioner, service);
    expect(await tableNames("orders-")).toEqual([]);
    expect(await taggedResources(aws, service.resource.id)).toEqual([]);
  }, 60_000);

  it("finds the table a call whose state was lost created, when applying and when deleting", async () => {
    const name = uniqueTable("crash");
    const service = testService(aws, resourceOf("nosql-database", { tableName: name, sortKey: "at" }));
    expect(await nosqlDatabaseProvisioner.apply(service.context())).toMatchObject({ done: false });
    await applyUntilDone(nosqlDatabaseProvisioner, service);
    expect(await tableNames(name)).toEqual([name]);

    service.state = {};
    await destroyUntilDone(nosqlDatabaseProvisioner, service);
    expect(await tableNames(name)).toEqual([]);
  });

  it("refuses a table name another owner's table holds, and leaves that table alone", async () => {
    const name = uniqueTable("theirs");
    await (
      await aws.dynamodb()
    ).send(
      new CreateTableCommand({
        TableName: name,
        KeySchema: [{ AttributeName: "pk", KeyType: "HASH" }],
        AttributeDefinitions: [{ AttributeName: "pk", AttributeType: "S" }],
        BillingMode: "PAY_PER_REQUEST",
      }),
    );
    const service = testService(aws, resourceOf("nosql-database", { tableName: name }));
    await expect(applyUntilDone(nosqlDatabaseProvisioner, service)).rejects.toMatchObject({
      code: "ResourceInUseException",
      message: `Creating the table ${name} failed: a DynamoDB table named ${name} already exists in this account and region and was not created for this service; choose another table name`,
    });
    await destroyUntilDone(nosqlDatabaseProvisioner, service);
    expect(await tableNames(name)).toEqual([name]);
  });

  it("reports a table deleted outside the console as missing", async () => {
    const name = uniqueTable("watched");
    const service = testService(aws, resourceOf("nosql-database", { tableName: name }));
    await applyUntilDone(nosqlDatabaseProvisioner, service);
    expect(await nosqlDatabaseProvisioner.observe(service.context())).toEqual({ state: "ok" });
    await (await aws.dynamodb()).send(new DeleteTableCommand({ TableName: name }));
    expect(await nosqlDatabaseProvisioner.observe(service.context())).toEqual({
      state: "missing",
      message: `The DynamoDB table ${name} no longer exists: it was deleted outside the console`,
    });
  });
});
