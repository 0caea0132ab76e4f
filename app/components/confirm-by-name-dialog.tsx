import { getFormProps, getInputProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Group, Modal, Stack, Text, TextInput } from "@mantine/core";
import type { useFetcher } from "@remix-run/react";
import { useState, type ReactNode } from "react";
import type * as z from "zod";
import { Button } from "./button";
import { typeNameToConfirm } from "./confirm-by-name";
import { FormErrors } from "./forms";
import { Restricted } from "./restricted";

/**
 * A danger button that opens a dialog titled `title`. The dialog's content (`children`, given a way to close it)
 * mounts on every opening, so each starts empty. A user who may not act sees the button restricted, and no dialog.
 */
export function ConfirmByNameDialog({
  title,
  triggerLabel = "Delete",
  allowed,
  defaultOpened = false,
  children,
}: {
  title: string;
  triggerLabel?: string;
  /** Whether the user may act (a permission); if not, the button is restricted and says why. */
  allowed: boolean;
  /** Open from the start, as when the page comes back with this form's answer. */
  defaultOpened?: boolean;
  children: (close: () => void) => ReactNode;
}) {
  const [opened, setOpened] = useState(defaultOpened);
  const close = () => setOpened(false);
  return (
    <>
      <Restricted allowed={allowed}>
        <Button variant="danger" onClick={() => setOpened(true)}>
          {triggerLabel}
        </Button>
      </Restricted>
      {allowed ? (
        <Modal opened={opened} onClose={close} title={title} centered>
          {opened ? children(close) : null}
        </Modal>
      ) : null}
    </>
  );
}

/** Remix's `Form` (the answer becomes the page's action data) or a fetcher's (the answer stays with the fetcher). */
type PostForm = ReturnType<typeof useFetcher>["Form"];

/**
 * A POST form that acts only once `name` has been typed exactly: its submit button stays disabled until then, and
 * the schema (with a `confirmation` field, see `confirmationByName`) checks it again before sending and on the server.
 */
export function ConfirmByNameForm({
  Form,
  id,
  name,
  schema,
  description,
  lastResult,
  submitting,
  onCancel,
  action,
  intent,
  submitLabel = "Delete",
  hiddenFields,
  notice,
  formErrors,
}: {
  Form: PostForm;
  id: string;
  name: string;
  schema: z.ZodType<{ confirmation: string }>;
  /** What acting does, shown above the field. */
  description: ReactNode;
  lastResult: SubmissionResult<string[]> | undefined;
  submitting: boolean;
  onCancel: () => void;
  action?: string;
  /** Sent as `intent` by the submit button. */
  intent?: string;
  submitLabel?: string;
  hiddenFields?: ReactNode;
  /** Shown above the field, such as the platform's refusal. */
  notice?: ReactNode;
  /** The form's errors when the submission's result carries none. */
  formErrors?: string[];
}) {
  const [typed, setTyped] = useState("");
  const [form, fields] = useForm<{ confirmation: string }>({
    id,
    lastResult,
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
    shouldValidate: "onSubmit",
  });
  const { key, ...confirmationProps } = getInputProps(fields.confirmation, { type: "text" });
  return (
    <Form method="post" action={action} {...getFormProps(form)}>
      {hiddenFields}
      <Stack gap="md">
        <Text>{description}</Text>
        {notice}
        <FormErrors errors={form.errors ?? formErrors} id={form.errorId} />
        <TextInput
          key={key}
          {...confirmationProps}
          label={typeNameToConfirm(name)}
          autoComplete="off"
          data-autofocus
          onChange={(event) => setTyped(event.currentTarget.value)}
          error={fields.confirmation.errors?.[0]}
        />
        <Group justify="flex-end" gap="sm">
          <Button variant="secondary" onClick={onCancel}>
            Cancel
          </Button>
          <Button
            type="submit"
            name={intent ? "intent" : undefined}
            value={intent}
            variant="danger"
            disabled={typed !== name}
            loading={submitting}
          >
            {submitLabel}
          </Button>
        </Group>
      </Stack>
    </Form>
  );
}
