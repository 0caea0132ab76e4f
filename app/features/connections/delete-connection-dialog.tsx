import { getFormProps, getInputProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Alert, Group, Modal, Stack, Text, TextInput } from "@mantine/core";
import { useFetcher } from "@remix-run/react";
import { useState } from "react";
import { Button } from "~/components/button";
import { Restricted } from "~/components/restricted";
import { deleteConnectionSchema } from "./delete-connection";

type DeleteAnswer = { form: string; result?: SubmissionResult<string[]>; error?: string };

/** "Delete": a dialog that deletes only once the connection's name has been typed; a refusal (409) says why. */
export function DeleteConnectionButton({ name, allowed }: { name: string; allowed: boolean }) {
  const [opened, setOpened] = useState(false);
  return (
    <>
      <Restricted allowed={allowed}>
        <Button variant="danger" onClick={() => setOpened(true)}>
          Delete
        </Button>
      </Restricted>
      <Modal opened={opened} onClose={() => setOpened(false)} title="Delete connection" centered>
        {opened ? <DeleteConnectionForm name={name} onCancel={() => setOpened(false)} /> : null}
      </Modal>
    </>
  );
}

function DeleteConnectionForm({ name, onCancel }: { name: string; onCancel: () => void }) {
  const fetcher = useFetcher<DeleteAnswer>();
  const schema = deleteConnectionSchema(name);
  const [typed, setTyped] = useState("");
  const [form, fields] = useForm({
    id: "delete-connection",
    lastResult: fetcher.data?.result,
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
    shouldValidate: "onSubmit",
  });
  const { key, ...confirmationProps } = getInputProps(fields.confirmation, { type: "text" });
  const refusal = fetcher.state === "idle" ? fetcher.data?.error : undefined;
  return (
    <fetcher.Form method="post" {...getFormProps(form)}>
      <Stack gap="md">
        <Text>
          This deletes <strong>{name}</strong> and its sealed credentials. It cannot be undone.
        </Text>
        {refusal ? (
          <Alert color="red" role="alert" title="Not deleted">
            {refusal}
          </Alert>
        ) : null}
        <TextInput
          key={key}
          {...confirmationProps}
          label={`Type ${name} to confirm`}
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
            name="intent"
            value="delete"
            variant="danger"
            disabled={typed !== name}
            loading={fetcher.state !== "idle"}
          >
            Delete
          </Button>
        </Group>
      </Stack>
    </fetcher.Form>
  );
}
