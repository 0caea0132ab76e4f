import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Group, Modal, Stack, Text, TextInput } from "@mantine/core";
import type { SubmissionResult } from "@conform-to/react";
import { useFetcher } from "@remix-run/react";
import { useState } from "react";
import { Button } from "~/components/button";
import { FormErrors } from "~/components/forms";
import { deleteEnvironmentSchema } from "./delete-environment";
import { environmentPagePaths } from "./paths";

/** "Delete environment": a dialog that deletes only once the environment's name has been typed. */
export function DeleteEnvironmentButton({ environmentName }: { environmentName: string }) {
  const [opened, setOpened] = useState(false);
  return (
    <>
      <Button variant="danger" onClick={() => setOpened(true)}>
        Delete environment
      </Button>
      <Modal opened={opened} onClose={() => setOpened(false)} title="Delete environment" centered>
        {opened ? (
          <DeleteEnvironmentForm environmentName={environmentName} onCancel={() => setOpened(false)} />
        ) : null}
      </Modal>
    </>
  );
}

function DeleteEnvironmentForm({
  environmentName,
  onCancel,
}: {
  environmentName: string;
  onCancel: () => void;
}) {
  const fetcher = useFetcher<SubmissionResult<string[]>>();
  const schema = deleteEnvironmentSchema(environmentName);
  const [typed, setTyped] = useState("");
  const [form, fields] = useForm({
    id: "delete-environment",
    lastResult: fetcher.data,
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
    shouldValidate: "onSubmit",
  });
  const { key, ...confirmationProps } = getInputProps(fields.confirmation, { type: "text" });
  return (
    <fetcher.Form method="post" action={environmentPagePaths.delete(environmentName)} {...getFormProps(form)}>
      <Stack gap="md">
        <Text>
          This deletes <strong>{environmentName}</strong> with its resources and variables. It cannot be
          undone. In a cloud account, its services are removed from the account first, which can take a while.
        </Text>
        <FormErrors errors={form.errors} id={form.errorId} />
        <TextInput
          key={key}
          {...confirmationProps}
          label={`Type ${environmentName} to confirm`}
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
            variant="danger"
            disabled={typed !== environmentName}
            loading={fetcher.state !== "idle"}
          >
            Delete
          </Button>
        </Group>
      </Stack>
    </fetcher.Form>
  );
}
