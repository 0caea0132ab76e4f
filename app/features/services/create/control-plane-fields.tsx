import { SimpleGrid } from "@mantine/core";
import { kubernetesVersions } from "#contract/service-configs";
import { SelectField, SwitchField } from "~/components/forms";
import { optionsOf, type ConfigFieldsProps } from "./config-field";

export function ControlPlaneFields({ config }: ConfigFieldsProps<"control-plane">) {
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
        field={fields.endpointAccess}
        label="Endpoint access"
        data={optionsOf(["public", "private", "public-and-private"], {
          public: "Public",
          private: "Private",
          "public-and-private": "Public and private",
        })}
        allowDeselect={false}
      />
      <SwitchField
        field={fields.controlPlaneLogging}
        label="Control plane logging"
        description="Send API server and audit logs to the environment's logs"
      />
    </SimpleGrid>
  );
}
