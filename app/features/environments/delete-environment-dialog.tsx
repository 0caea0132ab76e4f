import type { SubmissionResult } from "@conform-to/react";
import { useFetcher } from "@remix-run/react";
import { ConfirmByNameDialog, ConfirmByNameForm } from "~/components/confirm-by-name-dialog";
import { Text } from "@mantine/core";
import { deleteEnvironmentSchema } from "./delete-environment";
import { environmentPagePaths } from "./paths";

/** "Delete environment": a dialog that deletes only once the environment's name has been typed. */
export function DeleteEnvironmentButton({
  environmentName,
  consequences = null,
  allowed,
}: {
  environmentName: string;
  /** In a cloud account: what goes there and which snapshots are kept (features/services/deletion.server.ts). */
  consequences?: string | null;
  allowed: boolean;
}) {
  return (
    <ConfirmByNameDialog title="Delete environment" triggerLabel="Delete environment" allowed={allowed}>
      {(close) => (
        <DeleteEnvironmentForm
          environmentName={environmentName}
          consequences={consequences}
          onCancel={close}
        />
      )}
    </ConfirmByNameDialog>
  );
}

function DeleteEnvironmentForm({
  environmentName,
  consequences,
  onCancel,
}: {
  environmentName: string;
  consequences: string | null;
  onCancel: () => void;
}) {
  const fetcher = useFetcher<SubmissionResult<string[]>>();
  return (
    <ConfirmByNameForm
      Form={fetcher.Form}
      id="delete-environment"
      name={environmentName}
      schema={deleteEnvironmentSchema(environmentName)}
      action={environmentPagePaths.delete(environmentName)}
      lastResult={fetcher.data}
      submitting={fetcher.state !== "idle"}
      onCancel={onCancel}
      description={
        <>
          This deletes <strong>{environmentName}</strong> with its resources and variables. It cannot be
          undone. In a cloud account, its services are removed from the account first, which can take a while.
        </>
      }
      notice={
        consequences ? (
          <Text size="sm" data-testid="delete-environment-consequences">
            {consequences}
          </Text>
        ) : null
      }
    />
  );
}
