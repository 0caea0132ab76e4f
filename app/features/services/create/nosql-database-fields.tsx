import { useField } from "@conform-to/react";
import { Box, SimpleGrid } from "@mantine/core";
import { NumberField, SelectField, TextField } from "~/components/forms";
import { optionsOf, type ConfigFieldsProps } from "./config-field";

export function NosqlDatabaseFields({ config }: ConfigFieldsProps<"nosql-database">) {
  const fields = config.getFieldset();
  // Capacity applies only to provisioned billing; the fields stay in the form (hidden) so their values survive
  // switching back and forth.
  const [billingMode] = useField<string>(fields.billingMode.name, { formId: config.formId });
  const provisioned = billingMode.value === "provisioned";
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
      <TextField
        field={fields.tableName}
        label="Table name"
        description="3 to 255 letters, digits, hyphens, underscores and periods"
        autoComplete="off"
      />
      <SelectField
        field={fields.billingMode}
        label="Billing mode"
        data={optionsOf(["on-demand", "provisioned"], {
          "on-demand": "On demand",
          provisioned: "Provisioned capacity",
        })}
        allowDeselect={false}
      />
      <TextField field={fields.partitionKey} label="Partition key" autoComplete="off" />
      <TextField
        field={fields.sortKey}
        label="Sort key"
        description="Optional; must differ from the partition key"
        autoComplete="off"
      />
      <Box hidden={!provisioned}>
        <NumberField
          clampBehavior="none"
          field={fields.readCapacityUnits}
          label="Read capacity units"
          min={1}
          max={40_000}
          description="1 to 40,000"
        />
      </Box>
      <Box hidden={!provisioned}>
        <NumberField
          clampBehavior="none"
          field={fields.writeCapacityUnits}
          label="Write capacity units"
          min={1}
          max={40_000}
          description="1 to 40,000"
        />
      </Box>
    </SimpleGrid>
  );
}
