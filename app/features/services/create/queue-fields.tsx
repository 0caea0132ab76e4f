import { SimpleGrid } from "@mantine/core";
import { NumberField, SelectField, SwitchField } from "~/components/forms";
import { configOptions } from "#contract/config-labels";
import { fieldLabelsOf, type ConfigFieldsProps } from "./config-field";

export function QueueFields({ config }: ConfigFieldsProps<"queue">) {
  const fields = config.getFieldset();
  const label = fieldLabelsOf("queue");
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
      <SelectField
        field={fields.queueType}
        label={label("queueType")}
        description="FIFO keeps the order and delivers each message once"
        data={configOptions("queueType", ["standard", "fifo"])}
        allowDeselect={false}
      />
      <NumberField
        clampBehavior="none"
        field={fields.visibilityTimeoutSeconds}
        label={label("visibilityTimeoutSeconds")}
        min={0}
        max={43_200}
        description="0 to 43,200"
      />
      <NumberField
        clampBehavior="none"
        field={fields.messageRetentionDays}
        label={label("messageRetentionDays")}
        min={1}
        max={14}
        description="1 to 14"
      />
      <NumberField
        clampBehavior="none"
        field={fields.maxReceiveCount}
        label={label("maxReceiveCount")}
        min={1}
        max={1000}
        description="Receives before a message moves to the dead-letter queue"
      />
      <SwitchField
        field={fields.deadLetterQueue}
        label={label("deadLetterQueue")}
        description="Keep messages that could not be processed"
      />
    </SimpleGrid>
  );
}
