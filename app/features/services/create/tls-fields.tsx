import { useField, useFormMetadata } from "@conform-to/react";
import { List, SimpleGrid, Stack, Text } from "@mantine/core";
import { SelectField, TextField, TextareaField } from "~/components/forms";
import { configOptions } from "#contract/config-labels";
import { fieldLabelsOf, type ConfigFieldsProps } from "./config-field";
import { ALTERNATIVE_NAMES_TEXT_FIELD, alternativeNameIndexOf } from "./list-fields";

/** The contract's limit on alternative names. */
const MAX_ALTERNATIVE_NAMES = 10;

export function TlsFields({ config }: ConfigFieldsProps<"tls">) {
  const form = useFormMetadata(config.formId);
  const fields = config.getFieldset();
  const label = fieldLabelsOf("tls");
  // Typed as text and read as a list (expandListFields): its errors come keyed by position.
  const [alternativeNamesText] = useField<string>(ALTERNATIVE_NAMES_TEXT_FIELD, { formId: config.formId });
  const alternativeNames = alternativeNamesText.value?.split(/[\s,]+/).filter(Boolean) ?? [];
  const listErrors = Object.entries(form.allErrors).flatMap(([key, messages]) => {
    if (key === fields.subjectAlternativeNames.name) return messages;
    const index = alternativeNameIndexOf(key);
    return index === null
      ? []
      : messages.map((message) => `${alternativeNames[index] ?? `Name ${index + 1}`}: ${message}`);
  });
  return (
    <Stack gap="md">
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
        <TextField
          field={fields.domain}
          label={label("domain")}
          description="Such as api.example.com, or *.example.com for every subdomain"
          autoComplete="off"
        />
        <SelectField
          field={fields.validationMethod}
          label={label("validationMethod")}
          description="How you prove the domain is yours"
          data={configOptions("validationMethod", ["dns", "email"])}
          allowDeselect={false}
        />
      </SimpleGrid>
      <TextareaField
        field={alternativeNamesText}
        label={label("subjectAlternativeNames")}
        description={`Other domains the certificate covers, one per line or separated by commas; at most ${MAX_ALTERNATIVE_NAMES}.`}
        placeholder={"www.example.com\nshop.example.com"}
        autosize
        minRows={2}
        autoComplete="off"
        aria-invalid={listErrors.length ? true : undefined}
        aria-describedby={listErrors.length ? `${alternativeNamesText.id}-list-errors` : undefined}
      />
      {listErrors.length ? (
        <List size="sm" c="red" id={`${alternativeNamesText.id}-list-errors`} role="alert">
          {listErrors.map((message) => (
            <List.Item key={message}>
              <Text size="sm" c="red">
                {message}
              </Text>
            </List.Item>
          ))}
        </List>
      ) : null}
    </Stack>
  );
}
