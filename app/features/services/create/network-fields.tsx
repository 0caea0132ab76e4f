import { SimpleGrid } from "@mantine/core";
import { NumberField, SelectField, TextField } from "~/components/forms";
import { configOptions } from "#contract/config-labels";
import { fieldLabelsOf, type ConfigFieldsProps } from "./config-field";

export function NetworkFields({ config }: ConfigFieldsProps<"network">) {
  const fields = config.getFieldset();
  const label = fieldLabelsOf("network");
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
      <TextField
        field={fields.cidrBlock}
        label={label("cidrBlock")}
        description="An IPv4 network from /16 to /24, such as 10.0.0.0/16"
        autoComplete="off"
      />
      <NumberField
        clampBehavior="none"
        field={fields.availabilityZones}
        label={label("availabilityZones")}
        min={2}
        max={3}
        description="2 or 3"
      />
      <SelectField
        field={fields.natGateways}
        label={label("natGateways")}
        data={configOptions("natGateways", ["single", "one-per-zone"])}
        allowDeselect={false}
      />
    </SimpleGrid>
  );
}
