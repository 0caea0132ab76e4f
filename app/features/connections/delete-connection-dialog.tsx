import type { SubmissionResult } from "@conform-to/react";
import { Alert } from "@mantine/core";
import { useFetcher } from "@remix-run/react";
import { ConfirmByNameDialog, ConfirmByNameForm } from "~/components/confirm-by-name-dialog";
import { deleteConnectionSchema } from "./delete-connection";

type DeleteAnswer = { form: string; result?: SubmissionResult<string[]>; error?: string };

/** "Delete": a dialog that deletes only once the connection's name has been typed; a refusal (409) says why. */
export function DeleteConnectionButton({ name, allowed }: { name: string; allowed: boolean }) {
  return (
    <ConfirmByNameDialog title="Delete connection" allowed={allowed}>
      {(close) => <DeleteConnectionForm name={name} onCancel={close} />}
    </ConfirmByNameDialog>
  );
}

function DeleteConnectionForm({ name, onCancel }: { name: string; onCancel: () => void }) {
  const fetcher = useFetcher<DeleteAnswer>();
  const refusal = fetcher.state === "idle" ? fetcher.data?.error : undefined;
  return (
    <ConfirmByNameForm
      Form={fetcher.Form}
      id="delete-connection"
      name={name}
      schema={deleteConnectionSchema(name)}
      intent="delete"
      lastResult={fetcher.data?.result}
      submitting={fetcher.state !== "idle"}
      onCancel={onCancel}
      description={
        <>
          This deletes <strong>{name}</strong> and its sealed credentials. It cannot be undone.
        </>
      }
      notice={
        refusal ? (
          <Alert color="red" role="alert" title="Not deleted">
            {refusal}
          </Alert>
        ) : null
      }
    />
  );
}
