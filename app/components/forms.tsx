import { getInputProps, getTextareaProps, useInputControl, type FieldMetadata } from "@conform-to/react";
import {
  Alert,
  NumberInput,
  Select,
  Switch,
  Textarea,
  TextInput,
  type NumberInputProps,
  type SelectProps,
  type SwitchProps,
  type TextareaProps,
  type TextInputProps,
} from "@mantine/core";

/** A conform field rendered as a Mantine text input: name, id, constraints, default value and first error. */
export function TextField({
  field,
  ...props
}: { field: FieldMetadata<string> } & Omit<TextInputProps, "name" | "id" | "error" | "defaultValue">) {
  const { key, ...inputProps } = getInputProps(field, { type: "text" });
  return <TextInput key={key} {...inputProps} {...props} error={field.errors?.[0]} />;
}

/** A conform field rendered as a Mantine textarea. */
export function TextareaField({
  field,
  ...props
}: { field: FieldMetadata<string> } & Omit<TextareaProps, "name" | "id" | "error" | "defaultValue">) {
  const { key, ...textareaProps } = getTextareaProps(field);
  return <Textarea key={key} {...textareaProps} {...props} error={field.errors?.[0]} />;
}

/**
 * A conform field rendered as a Mantine select. Mantine submits the choice through a hidden input of the
 * field's name; conform's input control keeps that input and the form state (dirty, validation) in step.
 */
export function SelectField({
  field,
  onChange,
  ...props
}: { field: FieldMetadata<string> } & Omit<
  SelectProps,
  "name" | "id" | "error" | "value" | "defaultValue" | "form"
>) {
  const control = useInputControl(field);
  return (
    <Select
      {...props}
      id={field.id}
      name={field.name}
      form={field.formId}
      value={control.value ?? null}
      onChange={(value, option) => {
        control.change(value ?? "");
        onChange?.(value, option);
      }}
      onFocus={control.focus}
      onBlur={control.blur}
      required={field.required}
      aria-invalid={field.errors ? true : undefined}
      aria-describedby={field.errors ? field.errorId : undefined}
      error={field.errors?.[0]}
    />
  );
}

/** A conform boolean field rendered as a Mantine switch (a checkbox submitting "on" when checked). */
export function SwitchField({
  field,
  ...props
}: { field: FieldMetadata<boolean> } & Omit<
  SwitchProps,
  "name" | "id" | "error" | "checked" | "defaultChecked" | "value"
>) {
  const { key, ...inputProps } = getInputProps(field, { type: "checkbox" });
  return <Switch key={key} {...inputProps} {...props} error={field.errors?.[0]} />;
}

/** A conform number field rendered as a Mantine number input (whole numbers unless `allowDecimal`). */
export function NumberField({
  field,
  ...props
}: { field: FieldMetadata<number> } & Omit<
  NumberInputProps,
  "name" | "id" | "error" | "value" | "defaultValue" | "form"
>) {
  const initial =
    field.initialValue === undefined || field.initialValue === "" ? "" : Number(field.initialValue);
  return (
    <NumberInput
      key={field.key}
      allowDecimal={false}
      {...props}
      id={field.id}
      name={field.name}
      form={field.formId}
      defaultValue={Number.isNaN(initial) ? "" : initial}
      required={field.required}
      aria-invalid={field.errors ? true : undefined}
      aria-describedby={field.errors ? field.errorId : undefined}
      error={field.errors?.[0]}
    />
  );
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
