import { SimpleGrid, Stack } from "@mantine/core";
import { serverlessRuntimes } from "#contract/service-configs";
import { NumberField, SelectField, TextField } from "~/components/forms";
import { ArchiveUpload } from "./archive-upload";
import { configOptions } from "#contract/config-labels";
import { fieldLabelsOf, type ConfigFieldsProps } from "./config-field";

export function ServerlessFields({
  config,
  environmentName,
}: ConfigFieldsProps<"serverless"> & { environmentName: string }) {
  const fields = config.getFieldset();
  const label = fieldLabelsOf("serverless");
  return (
    <Stack gap="md">
      <ArchiveUpload field={fields.uploadId} environmentName={environmentName} />
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
        <SelectField
          field={fields.runtime}
          label={label("runtime")}
          data={configOptions("runtime", serverlessRuntimes)}
          allowDeselect={false}
        />
        <TextField
          field={fields.handler}
          label={label("handler")}
          description="The file and function to call, such as index.handler"
          autoComplete="off"
        />
        <NumberField
          clampBehavior="none"
          field={fields.memoryMb}
          label={label("memoryMb")}
          min={128}
          max={10_240}
          description="128 to 10,240"
        />
        <NumberField
          clampBehavior="none"
          field={fields.timeoutSeconds}
          label={label("timeoutSeconds")}
          min={1}
          max={900}
          description="1 to 900"
        />
      </SimpleGrid>
    </Stack>
  );
}
