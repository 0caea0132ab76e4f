import { useField } from "@conform-to/react";
import { Box, SimpleGrid } from "@mantine/core";
import { NumberField, SelectField, TextField } from "~/components/forms";
import { configOptions } from "#contract/config-labels";
import { fieldLabelsOf, type ConfigFieldsProps } from "./config-field";

export function NosqlDatabaseFields({ config }: ConfigFieldsProps<"nosql-database">) {
  const fields = config.getFieldset();
  const label = fieldLabelsOf("nosql-database");
  // Capacity applies only to provisioned billing; the fields stay in the form (hidden) so their values survive
  // switching back and forth.
  const [billingMode] = useField<string>(fields.billingMode.name, { formId: config.formId });
  const provisioned = billingMode.value === "provisioned";
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
      <TextField
        field={fields.tableName}
        label={label("tableName")}
        description="3 to 255 letters, digits, hyphens, underscores and periods"
        autoComplete="off"
      />
      <SelectField
        field={fields.billingMode}
        label={label("billingMode")}
        data={configOptions("billingMode", ["on-demand", "provisioned"])}
        allowDeselect={false}
      />
      <TextField field={fields.partitionKey} label={label("partitionKey")} autoComplete="off" />
      <TextField
        field={fields.sortKey}
        label={label("sortKey")}
        description="Optional; must differ from the partition key"
        autoComplete="off"
      />
      <Box hidden={!provisioned}>
        <NumberField
          clampBehavior="none"
          field={fields.readCapacityUnits}
          label={label("readCapacityUnits")}
          min={1}
          max={40_000}
          description="1 to 40,000"
        />
      </Box>
      <Box hidden={!provisioned}>
        <NumberField
          clampBehavior="none"
          field={fields.writeCapacityUnits}
          label={label("writeCapacityUnits")}
          min={1}
          max={40_000}
          description="1 to 40,000"
        />
      </Box>
    </SimpleGrid>
  );
}
