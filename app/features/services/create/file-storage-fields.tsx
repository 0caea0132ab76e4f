import { SimpleGrid } from "@mantine/core";
import { storageClasses } from "#contract/service-configs";
import { SelectField, SwitchField, TextField } from "~/components/forms";
import { configOptions } from "#contract/config-labels";
import { fieldLabelsOf, type ConfigFieldsProps } from "./config-field";

export function FileStorageFields({ config }: ConfigFieldsProps<"file-storage">) {
  const fields = config.getFieldset();
  const label = fieldLabelsOf("file-storage");
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
      <TextField
        field={fields.bucketName}
        label={label("bucketName")}
        description="3 to 63 lowercase letters, digits, hyphens and periods"
        autoComplete="off"
      />
      <SelectField
        field={fields.storageClass}
        label={label("storageClass")}
        data={configOptions("storageClass", storageClasses)}
        allowDeselect={false}
      />
      <SwitchField
        field={fields.versioning}
        label={label("versioning")}
        description="Keep earlier versions of each object"
      />
      <SwitchField
        field={fields.publicAccess}
        label={label("publicAccess")}
        description="Anyone with a link can read the objects"
      />
    </SimpleGrid>
  );
}
