import { getInputProps, type FieldMetadata } from "@conform-to/react";
import { Alert, TextInput, type TextInputProps } from "@mantine/core";

/** A conform field rendered as a Mantine text input: name, id, constraints, default value and first error. */
export function TextField({
  field,
  ...props
}: { field: FieldMetadata<string> } & Omit<TextInputProps, "name" | "id" | "error" | "defaultValue">) {
  const { key, ...inputProps } = getInputProps(field, { type: "text" });
  return <TextInput key={key} {...inputProps} {...props} error={field.errors?.[0]} />;
}

/** Errors about the whole form (for example the platform refusing the request). */
export function FormErrors({ errors, id }: { errors?: string[]; id?: string }) {
  if (!errors?.length) return null;
  return (
    <Alert color="red" id={id} role="alert" title="Not saved">
      {errors.join(" ")}
    </Alert>
  );
}
