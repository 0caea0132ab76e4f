import { SimpleGrid } from "@mantine/core";
import { NumberField, SelectField, SwitchField } from "~/components/forms";
import { optionsOf, type ConfigFieldsProps } from "./config-field";

export function QueueFields({ config }: ConfigFieldsProps<"queue">) {
  const fields = config.getFieldset();
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
      <SelectField
        field={fields.queueType}
        label="Queue type"
        description="FIFO keeps the order and delivers each message once"
        data={optionsOf(["standard", "fifo"], { standard: "Standard", fifo: "FIFO" })}
        allowDeselect={false}
      />
      <NumberField
        clampBehavior="none"
        field={fields.visibilityTimeoutSeconds}
        label="Visibility timeout (seconds)"
        min={0}
        max={43_200}
        description="0 to 43,200"
      />
      <NumberField
        clampBehavior="none"
        field={fields.messageRetentionDays}
        label="Message retention (days)"
        min={1}
        max={14}
        description="1 to 14"
      />
      <NumberField
        clampBehavior="none"
        field={fields.maxReceiveCount}
        label="Maximum receives"
        min={1}
        max={1000}
        description="Receives before a message moves to the dead-letter queue"
      />
      <SwitchField
        field={fields.deadLetterQueue}
        label="Dead-letter queue"
        description="Keep messages that could not be processed"
      />
    </SimpleGrid>
  );
}
