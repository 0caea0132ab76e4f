import type { KeySchemaElement, Projection, TableDescription, Tag } from "@aws-sdk/client-dynamodb";
import { attributes, block, tagsOf, type HclBlock, type ScannedResource } from "../model";
import { collect, mapWithConcurrency, type ServiceScanner } from "./service-scanner";

/** A table with its tags (DescribeTable answers none): an environment's export recognizes its tables by them. */
export type DynamoDbInventory = { tables: (TableDescription & { Tags?: Tag[] })[] };

const service = "dynamodb";

function keyOf(schema: KeySchemaElement[] | undefined, type: "HASH" | "RANGE"): string | undefined {
  return schema?.find((element) => element.KeyType === type)?.AttributeName;
}

function projectionAttributes(projection: Projection | undefined) {
  return {
    projection_type: projection?.ProjectionType,
    non_key_attributes: projection?.NonKeyAttributes ?? [],
  };
}

export const dynamoDbScanner: ServiceScanner<DynamoDbInventory> = {
  service,
  permissions: ["dynamodb:ListTables", "dynamodb:DescribeTable", "dynamodb:ListTagsOfResource"],

  async read(clients) {
    const { DescribeTableCommand, ListTagsOfResourceCommand, paginateListTables } = await import(
      "@aws-sdk/client-dynamodb"
    );
    const client = await clients.dynamodb();
    const names = await collect(paginateListTables({ client }, {}), (page) => page.TableNames);
    const tables = await mapWithConcurrency(names, 4, async (TableName) => {
      const { Table } = await client.send(new DescribeTableCommand({ TableName }));
      if (!Table?.TableArn) return Table;
      const { Tags } = await client.send(new ListTagsOfResourceCommand({ ResourceArn: Table.TableArn }));
      return { ...Table, Tags };
    });
    return { tables: tables.filter((table): table is TableDescription => Boolean(table?.TableName)) };
  },

  toResources(raw) {
    return raw.tables.flatMap((table): ScannedResource[] => {
      const name = table.TableName;
      if (!name) return [];
      const billingMode = table.BillingModeSummary?.BillingMode ?? "PROVISIONED";
      const provisioned = billingMode === "PROVISIONED";
      const indexes: HclBlock[] = [
        ...(table.GlobalSecondaryIndexes ?? []).map((index) =>
          block(
            "global_secondary_index",
            attributes({
              name: index.IndexName,
              hash_key: keyOf(index.KeySchema, "HASH"),
              range_key: keyOf(index.KeySchema, "RANGE"),
              ...projectionAttributes(index.Projection),
              read_capacity: provisioned ? index.ProvisionedThroughput?.ReadCapacityUnits : undefined,
              write_capacity: provisioned ? index.ProvisionedThroughput?.WriteCapacityUnits : undefined,
            }),
          ),
        ),
        ...(table.LocalSecondaryIndexes ?? []).map((index) =>
          block(
            "local_secondary_index",
            attributes({
              name: index.IndexName,
              range_key: keyOf(index.KeySchema, "RANGE"),
              ...projectionAttributes(index.Projection),
            }),
          ),
        ),
      ];
      return [
        {
          service,
          type: "aws_dynamodb_table",
          awsId: name,
          importId: name,
          nameHint: name,
          body: [
            ...attributes({
              name,
              billing_mode: billingMode,
              hash_key: keyOf(table.KeySchema, "HASH"),
              range_key: keyOf(table.KeySchema, "RANGE"),
              read_capacity: provisioned ? table.ProvisionedThroughput?.ReadCapacityUnits : undefined,
              write_capacity: provisioned ? table.ProvisionedThroughput?.WriteCapacityUnits : undefined,
              stream_enabled: table.StreamSpecification?.StreamEnabled ? true : undefined,
              stream_view_type: table.StreamSpecification?.StreamEnabled
                ? table.StreamSpecification.StreamViewType
                : undefined,
            }),
            ...(table.AttributeDefinitions ?? []).map((definition) =>
              block(
                "attribute",
                attributes({ name: definition.AttributeName, type: definition.AttributeType }),
              ),
            ),
            ...indexes,
          ],
          tags: tagsOf(table.Tags),
        },
      ];
    });
  },
};
