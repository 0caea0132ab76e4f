import { useField, useFormMetadata } from "@conform-to/react";
import { SimpleGrid } from "@mantine/core";
import { databaseEngines, databaseInstanceSizes } from "#contract/service-configs";
import { NumberField, SelectField, SwitchField, TextField } from "~/components/forms";
import { optionsOf, type ConfigFieldsProps } from "./config-field";

const engineLabels: Record<string, string> = { postgres: "PostgreSQL", mysql: "MySQL", mariadb: "MariaDB" };
type Engine = keyof typeof databaseEngines;
const isEngine = (value: string | null | undefined): value is Engine => !!value && value in databaseEngines;

export function DatabaseFields({ config }: ConfigFieldsProps<"database">) {
  const form = useFormMetadata(config.formId);
  const fields = config.getFieldset();
  // Subscribed here, so the versions follow the engine as it changes.
  const [engineField] = useField<string>(fields.engine.name, { formId: config.formId });
  const engine: Engine = isEngine(engineField.value) ? engineField.value : "postgres";
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
      <SelectField
        field={fields.engine}
        label="Engine"
        data={optionsOf(Object.keys(databaseEngines), engineLabels)}
        allowDeselect={false}
        onChange={(value) => {
          // Each engine offers its own versions: start at its newest.
          if (isEngine(value)) form.update({ name: fields.version.name, value: databaseEngines[value][0] });
        }}
      />
      <SelectField
        field={fields.version}
        label="Version"
        data={optionsOf(databaseEngines[engine])}
        allowDeselect={false}
      />
      <SelectField
        field={fields.instanceSize}
        label="Instance size"
        data={optionsOf(databaseInstanceSizes)}
        allowDeselect={false}
      />
      <NumberField
        clampBehavior="none"
        field={fields.storageGb}
        label="Storage (GB)"
        min={20}
        max={16_384}
        description="20 to 16,384"
      />
      <TextField
        field={fields.username}
        label="Master username"
        description="Lowercase, starting with a letter"
        autoComplete="off"
      />
      <NumberField
        clampBehavior="none"
        field={fields.backupRetentionDays}
        label="Backup retention (days)"
        min={0}
        max={35}
        description="0 turns automated backups off"
      />
      <SwitchField
        field={fields.multiAz}
        label="Multi-AZ"
        description="A standby in a second availability zone"
      />
    </SimpleGrid>
  );
}
