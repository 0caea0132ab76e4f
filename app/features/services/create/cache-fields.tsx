import { useField, useFormMetadata } from "@conform-to/react";
import { SimpleGrid } from "@mantine/core";
import { cacheEngines, cacheNodeSizes } from "#contract/service-configs";
import { NumberField, SelectField, SwitchField } from "~/components/forms";
import { configOptions } from "#contract/config-labels";
import { fieldLabelsOf, type ConfigFieldsProps } from "./config-field";

type Engine = keyof typeof cacheEngines;
const isEngine = (value: string | null | undefined): value is Engine => !!value && value in cacheEngines;

export function CacheFields({ config }: ConfigFieldsProps<"cache">) {
  const form = useFormMetadata(config.formId);
  const fields = config.getFieldset();
  const label = fieldLabelsOf("cache");
  // Subscribed here, so the versions follow the engine as it changes.
  const [engineField] = useField<string>(fields.engine.name, { formId: config.formId });
  const engine: Engine = isEngine(engineField.value) ? engineField.value : "redis";
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
      <SelectField
        field={fields.engine}
        label={label("engine")}
        data={configOptions("engine", Object.keys(cacheEngines))}
        allowDeselect={false}
        onChange={(value) => {
          if (isEngine(value)) form.update({ name: fields.version.name, value: cacheEngines[value][0] });
        }}
      />
      <SelectField
        field={fields.version}
        label={label("version")}
        data={configOptions("version", cacheEngines[engine])}
        allowDeselect={false}
      />
      <SelectField
        field={fields.nodeSize}
        label={label("nodeSize")}
        data={configOptions("nodeSize", cacheNodeSizes)}
        allowDeselect={false}
      />
      <NumberField
        clampBehavior="none"
        field={fields.nodes}
        label={label("nodes")}
        min={1}
        max={6}
        description="1 to 6"
      />
      <SwitchField
        field={fields.encryptionInTransit}
        label={label("encryptionInTransit")}
        description="TLS between clients and the cache"
      />
    </SimpleGrid>
  );
}
