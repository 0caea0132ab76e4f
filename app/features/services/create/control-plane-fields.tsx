import { SimpleGrid } from "@mantine/core";
import { kubernetesVersions } from "#contract/service-configs";
import { SelectField, SwitchField } from "~/components/forms";
import { configOptions } from "#contract/config-labels";
import { fieldLabelsOf, type ConfigFieldsProps } from "./config-field";

export function ControlPlaneFields({ config }: ConfigFieldsProps<"control-plane">) {
  const fields = config.getFieldset();
  const label = fieldLabelsOf("control-plane");
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
      <SelectField
        field={fields.version}
        label={label("version")}
        data={configOptions("version", kubernetesVersions)}
        allowDeselect={false}
      />
      <SelectField
        field={fields.endpointAccess}
        label={label("endpointAccess")}
        data={configOptions("endpointAccess", ["public", "private", "public-and-private"])}
        allowDeselect={false}
      />
      <SwitchField
        field={fields.controlPlaneLogging}
        label={label("controlPlaneLogging")}
        description="Send API server and audit logs to the environment's logs"
      />
    </SimpleGrid>
  );
}
