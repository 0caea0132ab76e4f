import { SimpleGrid, Stack } from "@mantine/core";
import { serverlessRuntimes } from "#contract/service-configs";
import { NumberField, SelectField, TextField } from "~/components/forms";
import { ArchiveUpload } from "./archive-upload";
import { optionsOf, type ConfigFieldsProps } from "./config-field";

export function ServerlessFields({
  config,
  environmentName,
}: ConfigFieldsProps<"serverless"> & { environmentName: string }) {
  const fields = config.getFieldset();
  return (
    <Stack gap="md">
      <ArchiveUpload field={fields.uploadId} environmentName={environmentName} />
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
        <SelectField
          field={fields.runtime}
          label="Runtime"
          data={optionsOf(serverlessRuntimes)}
          allowDeselect={false}
        />
        <TextField
          field={fields.handler}
          label="Handler"
          description="The file and function to call, such as index.handler"
          autoComplete="off"
        />
        <NumberField
          clampBehavior="none"
          field={fields.memoryMb}
          label="Memory (MB)"
          min={128}
          max={10_240}
          description="128 to 10,240"
        />
        <NumberField
          clampBehavior="none"
          field={fields.timeoutSeconds}
          label="Timeout (seconds)"
          min={1}
          max={900}
          description="1 to 900"
        />
      </SimpleGrid>
    </Stack>
  );
}
