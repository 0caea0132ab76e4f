import { Group, Modal, Stack, Text } from "@mantine/core";
import { useFetcher } from "@remix-run/react";
import { useEffect, useState } from "react";
import type { EnvironmentVariable } from "#contract/environments";
import { Button } from "~/components/button";
import { FormErrors } from "~/components/forms";
import type { VariablesActionData } from "./variable-forms";

/** "Delete" on a variable's row: asks first, then deletes it. */
export function DeleteVariableButton({ variable }: { variable: EnvironmentVariable }) {
  const [opened, setOpened] = useState(false);
  return (
    <>
      <Button
        variant="ghostSecondary"
        size="small"
        aria-label={`Delete ${variable.name}`}
        onClick={() => setOpened(true)}
      >
        Delete
      </Button>
      <Modal opened={opened} onClose={() => setOpened(false)} title="Delete variable" centered>
        {opened ? <DeleteVariableForm variable={variable} onDone={() => setOpened(false)} /> : null}
      </Modal>
    </>
  );
}

function DeleteVariableForm({ variable, onDone }: { variable: EnvironmentVariable; onDone: () => void }) {
  const fetcher = useFetcher<VariablesActionData>();
  const answer = fetcher.state === "idle" ? fetcher.data : undefined;
  useEffect(() => {
    if (answer?.status === "success") onDone();
  }, [answer, onDone]);
  return (
    <fetcher.Form method="post">
      <input type="hidden" name="intent" value="delete" />
      <input type="hidden" name="id" value={variable.id} />
      <input type="hidden" name="name" value={variable.name} />
      <Stack gap="md">
        <FormErrors errors={answer?.error?.[""] ?? undefined} />
        <Text>
          Delete <strong>{variable.name}</strong>? Services that use it no longer get it on their next
          deployment.
        </Text>
        <Group justify="flex-end" gap="sm">
          <Button variant="secondary" onClick={onDone} data-autofocus>
            Cancel
          </Button>
          <Button type="submit" variant="danger" loading={fetcher.state !== "idle"}>
            Delete variable
          </Button>
        </Group>
      </Stack>
    </fetcher.Form>
  );
}
