import { getFormProps, useForm } from "@conform-to/react";
import { getZodConstraint } from "@conform-to/zod/v4";
import { parseWithZod } from "@conform-to/zod/v4";
import { Group, Modal, Stack } from "@mantine/core";
import { Form, Link, useActionData, useFetcher, useNavigation } from "@remix-run/react";
import { useEffect, useState } from "react";
import type { EnvironmentVariable } from "#contract/environments";
import { Button } from "~/components/button";
import { GetFormButton } from "~/components/get-form-button";
import { FormErrors, SwitchField, TextareaField, TextField } from "~/components/forms";
import { UnsavedChangesDialog } from "~/components/unsaved-changes-dialog";
import { useUnsavedChanges } from "~/hooks/use-unsaved-changes";
import {
  createVariableSchema,
  updateVariableSchema,
  variableDialogQuery,
  type VariablesActionData,
} from "./variable-forms";

export function AddVariableButton() {
  const [opened, setOpened] = useState(false);
  return (
    <>
      <GetFormButton
        size="small"
        query={variableDialogQuery({ kind: "add" })}
        onActivate={() => setOpened(true)}
      >
        Add variable
      </GetFormButton>
      <Modal opened={opened} onClose={() => setOpened(false)} title="Add variable" centered size="lg">
        {opened ? <VariableForm onDone={() => setOpened(false)} /> : null}
      </Modal>
    </>
  );
}

export function EditVariableButton({ variable }: { variable: EnvironmentVariable }) {
  const [opened, setOpened] = useState(false);
  return (
    <>
      <GetFormButton
        variant="ghost"
        size="small"
        aria-label={`Edit ${variable.name}`}
        query={variableDialogQuery({ kind: "edit", variableId: variable.id })}
        onActivate={() => setOpened(true)}
      >
        Edit
      </GetFormButton>
      <Modal
        opened={opened}
        onClose={() => setOpened(false)}
        title={`Edit ${variable.name}`}
        centered
        size="lg"
      >
        {opened ? <VariableForm variable={variable} onDone={() => setOpened(false)} /> : null}
      </Modal>
    </>
  );
}

/**
 * Adds a variable, or edits `variable`. A secret's value is not shown here: its field starts empty and, left
 * empty, keeps the stored value. In a dialog it submits through a fetcher; `inline` (the page's no-JavaScript
 * rendering of `?dialog=`) it is a plain form whose success leads back to the page.
 */
export function VariableForm({
  variable,
  onDone,
  inline = false,
}: {
  variable?: EnvironmentVariable;
  onDone?: () => void;
  inline?: boolean;
}) {
  const fetcher = useFetcher<VariablesActionData>();
  const actionData = useActionData<VariablesActionData>();
  const navigation = useNavigation();
  const FormElement = inline ? Form : fetcher.Form;
  const schema = variable ? updateVariableSchema : createVariableSchema;
  const valueHidden = variable?.secret ?? false;
  const [form, fields] = useForm({
    id: variable ? `edit-variable-${variable.id}` : "add-variable",
    lastResult: inline ? actionData : fetcher.state === "idle" ? fetcher.data : undefined,
    defaultValue: variable
      ? { name: variable.name, value: valueHidden ? "" : variable.value, secret: variable.secret }
      : { secret: false },
    constraint: getZodConstraint(schema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  const unsavedChanges = useUnsavedChanges(form.dirty, { formId: form.id });
  const saved = !inline && fetcher.state === "idle" && fetcher.data?.status === "success";
  useEffect(() => {
    if (saved) onDone?.();
  }, [saved, onDone]);

  return (
    <FormElement method="post" {...getFormProps(form)}>
      <input type="hidden" name="intent" value={variable ? "update" : "create"} />
      {variable ? <input type="hidden" name="id" value={variable.id} /> : null}
      {valueHidden ? <input type="hidden" name="valueHidden" value="on" /> : null}
      <Stack gap="md">
        <FormErrors errors={form.errors} id={form.errorId} />
        <TextField
          field={fields.name}
          label="Name"
          description="Letters, digits and underscores, starting with a letter or underscore."
          autoComplete="off"
          ff="monospace"
          data-autofocus
        />
        <TextareaField
          field={fields.value}
          label="Value"
          placeholder={valueHidden ? "Leave empty to keep the current value" : undefined}
          autosize
          minRows={1}
          maxRows={8}
          styles={{ input: { fontFamily: "var(--mantine-font-family-monospace)" } }}
        />
        <SwitchField
          field={fields.secret}
          label="Secret"
          description="Stored encrypted and shown masked; revealing it is a deliberate step."
        />
        <Group justify="flex-end" gap="sm">
          <CancelButton inline={inline} onDone={onDone} />
          <Button
            type="submit"
            loading={inline ? navigation.state === "submitting" : fetcher.state !== "idle"}
          >
            {variable ? "Save variable" : "Add variable"}
          </Button>
        </Group>
      </Stack>
      <UnsavedChangesDialog blocker={unsavedChanges} />
    </FormElement>
  );
}

/** Cancel closes the dialog, or, for a form shown in the page, leads back to the page without it. */
export function CancelButton({ inline, onDone }: { inline: boolean; onDone?: () => void }) {
  return inline ? (
    <Button component={Link} to="." variant="secondary">
      Cancel
    </Button>
  ) : (
    <Button variant="secondary" onClick={onDone}>
      Cancel
    </Button>
  );
}
