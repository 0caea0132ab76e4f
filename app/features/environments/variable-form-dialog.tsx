import { getFormProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { Group, Modal, Stack } from "@mantine/core";
import { useFetcher } from "@remix-run/react";
import { useEffect, useState } from "react";
import type { EnvironmentVariable } from "#contract/environments";
import { Button } from "~/components/button";
import { FormErrors, SwitchField, TextareaField, TextField } from "~/components/forms";
import { UnsavedChangesDialog } from "~/components/unsaved-changes-dialog";
import { useUnsavedChanges } from "~/hooks/use-unsaved-changes";
import { createVariableSchema, updateVariableSchema, type VariablesActionData } from "./variable-forms";

export function AddVariableButton() {
  const [opened, setOpened] = useState(false);
  return (
    <>
      <Button size="small" onClick={() => setOpened(true)}>
        Add variable
      </Button>
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
      <Button
        variant="ghost"
        size="small"
        aria-label={`Edit ${variable.name}`}
        onClick={() => setOpened(true)}
      >
        Edit
      </Button>
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
 * empty, keeps the stored value.
 */
function VariableForm({ variable, onDone }: { variable?: EnvironmentVariable; onDone: () => void }) {
  const fetcher = useFetcher<VariablesActionData>();
  const schema = variable ? updateVariableSchema : createVariableSchema;
  const valueHidden = variable?.secret ?? false;
  const [form, fields] = useForm({
    id: variable ? `edit-variable-${variable.id}` : "add-variable",
    lastResult: fetcher.state === "idle" ? fetcher.data : undefined,
    defaultValue: variable
      ? { name: variable.name, value: valueHidden ? "" : variable.value, secret: variable.secret }
      : { secret: false },
    constraint: getZodConstraint(schema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  const unsavedChanges = useUnsavedChanges(form.dirty, { formId: form.id });
  const saved = fetcher.state === "idle" && fetcher.data?.status === "success";
  useEffect(() => {
    if (saved) onDone();
  }, [saved, onDone]);

  return (
    <fetcher.Form method="post" {...getFormProps(form)}>
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
          <Button variant="secondary" onClick={onDone}>
            Cancel
          </Button>
          <Button type="submit" loading={fetcher.state !== "idle"}>
            {variable ? "Save variable" : "Add variable"}
          </Button>
        </Group>
      </Stack>
      <UnsavedChangesDialog blocker={unsavedChanges} />
    </fetcher.Form>
  );
}
