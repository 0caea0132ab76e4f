import type { SubmissionResult } from "@conform-to/react";
import { useFetcher } from "@remix-run/react";
import { useEffect } from "react";
import { ConfirmByNameDialog, ConfirmByNameForm } from "~/components/confirm-by-name-dialog";
import { List, Stack, Text } from "@mantine/core";
import { deleteEnvironmentSchema } from "./delete-environment";
import { environmentPagePaths } from "./paths";

/** "Delete environment": a dialog that deletes only once the environment's name has been typed. */
/** A pull request whose preview environment goes with its source. */
export type PreviewThatGoes = { number: number; title: string };

/** The plan's part about previews: each live one is removed with its source, as if its pull request closed. */
export function PreviewsThatGo({ previews }: { previews: PreviewThatGoes[] }) {
  if (!previews.length) return null;
  return (
    <Stack gap={4} data-testid="delete-environment-previews">
      <Text size="sm">
        {previews.length === 1
          ? "Its preview environment is removed with it, and its pull request told why:"
          : `Its ${previews.length} preview environments are removed with it, and their pull requests told why:`}
      </Text>
      <List size="sm">
        {previews.map((preview) => (
          <List.Item key={preview.number}>
            #{preview.number} {preview.title}
          </List.Item>
        ))}
      </List>
    </Stack>
  );
}

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
  // The plan, asked for as the dialog opens: the previews that go with the environment.
  const plan = useFetcher<{ previews: PreviewThatGoes[] }>();
  const { load } = plan;
  useEffect(() => {
    load(environmentPagePaths.delete(environmentName));
  }, [load, environmentName]);
  const previews = plan.data?.previews ?? [];
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
        consequences || previews.length ? (
          <Stack gap="xs">
            {consequences ? (
              <Text size="sm" data-testid="delete-environment-consequences">
                {consequences}
              </Text>
            ) : null}
            <PreviewsThatGo previews={previews} />
          </Stack>
        ) : null
      }
    />
  );
}
