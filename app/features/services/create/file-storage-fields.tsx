import { SimpleGrid } from "@mantine/core";
import { storageClasses } from "#contract/service-configs";
import { SelectField, SwitchField, TextField } from "~/components/forms";
import { optionsOf, type ConfigFieldsProps } from "./config-field";

const storageClassLabels: Record<string, string> = {
  standard: "Standard",
  "infrequent-access": "Infrequent access",
  archive: "Archive",
};

export function FileStorageFields({ config }: ConfigFieldsProps<"file-storage">) {
  const fields = config.getFieldset();
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
      <TextField
        field={fields.bucketName}
        label="Bucket name"
        description="3 to 63 lowercase letters, digits, hyphens and periods"
        autoComplete="off"
      />
      <SelectField
        field={fields.storageClass}
        label="Storage class"
        data={optionsOf(storageClasses, storageClassLabels)}
        allowDeselect={false}
      />
      <SwitchField
        field={fields.versioning}
        label="Versioning"
        description="Keep earlier versions of each object"
      />
      <SwitchField
        field={fields.publicAccess}
        label="Public access"
        description="Anyone with a link can read the objects"
      />
    </SimpleGrid>
  );
}
