import { SimpleGrid } from "@mantine/core";
import { NumberField, SelectField, TextField } from "~/components/forms";
import { optionsOf, type ConfigFieldsProps } from "./config-field";

export function NetworkFields({ config }: ConfigFieldsProps<"network">) {
  const fields = config.getFieldset();
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
      <TextField
        field={fields.cidrBlock}
        label="CIDR block"
        description="An IPv4 network from /16 to /24, such as 10.0.0.0/16"
        autoComplete="off"
      />
      <NumberField
        clampBehavior="none"
        field={fields.availabilityZones}
        label="Availability zones"
        min={2}
        max={3}
        description="2 or 3"
      />
      <SelectField
        field={fields.natGateways}
        label="NAT gateways"
        data={optionsOf(["single", "one-per-zone"], { single: "Single", "one-per-zone": "One per zone" })}
        allowDeselect={false}
      />
    </SimpleGrid>
  );
}
