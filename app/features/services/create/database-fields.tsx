import { useField, useFormMetadata } from "@conform-to/react";
import { SimpleGrid } from "@mantine/core";
import { databaseEngines, databaseInstanceSizes } from "#contract/service-configs";
import { NumberField, SelectField, SwitchField, TextField } from "~/components/forms";
import { configOptions } from "#contract/config-labels";
import { fieldLabelsOf, type ConfigFieldsProps } from "./config-field";

type Engine = keyof typeof databaseEngines;
const isEngine = (value: string | null | undefined): value is Engine => !!value && value in databaseEngines;

export function DatabaseFields({ config }: ConfigFieldsProps<"database">) {
  const form = useFormMetadata(config.formId);
  const fields = config.getFieldset();
  const label = fieldLabelsOf("database");
  // Subscribed here, so the versions follow the engine as it changes.
  const [engineField] = useField<string>(fields.engine.name, { formId: config.formId });
  const engine: Engine = isEngine(engineField.value) ? engineField.value : "postgres";
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
      <SelectField
        field={fields.engine}
        label={label("engine")}
        data={configOptions("engine", Object.keys(databaseEngines))}
        allowDeselect={false}
        onChange={(value) => {
          // Each engine offers its own versions: start at its newest.
          if (isEngine(value)) form.update({ name: fields.version.name, value: databaseEngines[value][0] });
        }}
      />
      <SelectField
        field={fields.version}
        label={label("version")}
        data={configOptions("version", databaseEngines[engine])}
        allowDeselect={false}
      />
      <SelectField
        field={fields.instanceSize}
        label={label("instanceSize")}
        data={configOptions("instanceSize", databaseInstanceSizes)}
        allowDeselect={false}
      />
      <NumberField
        clampBehavior="none"
        field={fields.storageGb}
        label={label("storageGb")}
        min={20}
        max={16_384}
        description="20 to 16,384"
      />
      <TextField
        field={fields.username}
        label={label("username")}
        description="Lowercase, starting with a letter"
        autoComplete="off"
      />
      <NumberField
        clampBehavior="none"
        field={fields.backupRetentionDays}
        label={label("backupRetentionDays")}
        min={0}
        max={35}
        description="0 turns automated backups off"
      />
      <SwitchField
        field={fields.multiAz}
        label={label("multiAz")}
        description="A standby in a second availability zone"
      />
    </SimpleGrid>
  );
}
