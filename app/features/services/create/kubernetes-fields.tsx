import { SimpleGrid } from "@mantine/core";
import { kubernetesNodeTypes, kubernetesVersions } from "#contract/service-configs";
import { NumberField, SelectField } from "~/components/forms";
import { configOptions } from "#contract/config-labels";
import { fieldLabelsOf, type ConfigFieldsProps } from "./config-field";

export function KubernetesFields({ config }: ConfigFieldsProps<"kubernetes">) {
  const fields = config.getFieldset();
  const label = fieldLabelsOf("kubernetes");
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
      <SelectField
        field={fields.version}
        label={label("version")}
        data={configOptions("version", kubernetesVersions)}
        allowDeselect={false}
      />
      <SelectField
        field={fields.nodeInstanceType}
        label={label("nodeInstanceType")}
        data={configOptions("nodeInstanceType", kubernetesNodeTypes)}
        allowDeselect={false}
      />
      <NumberField
        clampBehavior="none"
        field={fields.minNodes}
        label={label("minNodes")}
        min={1}
        max={100}
        description="1 to 100"
      />
      <NumberField
        clampBehavior="none"
        field={fields.maxNodes}
        label={label("maxNodes")}
        min={1}
        max={100}
        description="At least the minimum"
      />
    </SimpleGrid>
  );
}
