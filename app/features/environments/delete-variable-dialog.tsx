import { Group, Modal, Stack, Text } from "@mantine/core";
import { Form, useActionData, useFetcher, useNavigation } from "@remix-run/react";
import { useEffect, useState } from "react";
import type { EnvironmentVariable } from "#contract/environments";
import { Button } from "~/components/button";
import { GetFormButton } from "~/components/get-form-button";
import { FormErrors } from "~/components/forms";
import { CancelButton } from "./variable-form-dialog";
import { variableDialogQuery, type VariablesActionData } from "./variable-forms";

/** "Delete" on a variable's row: asks first, then deletes it. */
export function DeleteVariableButton({ variable }: { variable: EnvironmentVariable }) {
  const [opened, setOpened] = useState(false);
  return (
    <>
      <GetFormButton
        variant="ghostSecondary"
        size="small"
        aria-label={`Delete ${variable.name}`}
        query={variableDialogQuery({ kind: "delete", variableId: variable.id })}
        onActivate={() => setOpened(true)}
      >
        Delete
      </GetFormButton>
      <Modal opened={opened} onClose={() => setOpened(false)} title="Delete variable" centered>
        {opened ? <DeleteVariableForm variable={variable} onDone={() => setOpened(false)} /> : null}
      </Modal>
    </>
  );
}

/** In the dialog through a fetcher; `inline` (the page's no-JavaScript rendering) a plain form. */
export function DeleteVariableForm({
  variable,
  onDone,
  inline = false,
}: {
  variable: EnvironmentVariable;
  onDone?: () => void;
  inline?: boolean;
}) {
  const fetcher = useFetcher<VariablesActionData>();
  const actionData = useActionData<VariablesActionData>();
  const navigation = useNavigation();
  const FormElement = inline ? Form : fetcher.Form;
  const answer = inline ? actionData : fetcher.state === "idle" ? fetcher.data : undefined;
  useEffect(() => {
    if (!inline && answer?.status === "success") onDone?.();
  }, [inline, answer, onDone]);
  return (
    <FormElement method="post">
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
          <CancelButton inline={inline} onDone={onDone} />
          <Button
            type="submit"
            variant="danger"
            loading={inline ? navigation.state === "submitting" : fetcher.state !== "idle"}
          >
            Delete variable
          </Button>
        </Group>
      </Stack>
    </FormElement>
  );
}
