import { SimpleGrid } from "@mantine/core";
import { kubernetesNodeTypes, kubernetesVersions } from "#contract/service-configs";
import { NumberField, SelectField } from "~/components/forms";
import { optionsOf, type ConfigFieldsProps } from "./config-field";

export function KubernetesFields({ config }: ConfigFieldsProps<"kubernetes">) {
  const fields = config.getFieldset();
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
      <SelectField
        field={fields.version}
        label="Kubernetes version"
        data={optionsOf(kubernetesVersions)}
        allowDeselect={false}
      />
      <SelectField
        field={fields.nodeInstanceType}
        label="Node instance type"
        data={optionsOf(kubernetesNodeTypes)}
        allowDeselect={false}
      />
      <NumberField
        clampBehavior="none"
        field={fields.minNodes}
        label="Minimum nodes"
        min={1}
        max={100}
        description="1 to 100"
      />
      <NumberField
        clampBehavior="none"
        field={fields.maxNodes}
        label="Maximum nodes"
        min={1}
        max={100}
        description="At least the minimum"
      />
    </SimpleGrid>
  );
}
