import { Alert, Group, Loader, Modal, Stack, Text } from "@mantine/core";
import { useFetcher } from "@remix-run/react";
import { useEffect, useRef } from "react";
import type { ApplicationVersion } from "#contract/applications";
import type { ConfigDiff } from "#contract/services";
import { Button } from "~/components/button";
import { DiffTable } from "~/features/services/details/diff-table";

type VersionAnswer =
  | { ok: true; version: ApplicationVersion; diff: ConfigDiff }
  | { ok: false; message: string };

/**
 * 'Roll back to this version': the version's diff against the running one (GET version), then a confirmation
 * that POSTs the rollback; the route redirects to the history with a toast.
 */
export function RollbackDialog({ path, onClose }: { path: string | null; onClose: () => void }) {
  const version = useFetcher<VersionAnswer>();
  const rollback = useFetcher<{ error?: string }>();
  const { load } = version;
  useEffect(() => {
    if (path) load(path);
  }, [load, path]);
  const answer = version.state === "idle" ? version.data : undefined;
  // Once the rollback is accepted (the route redirects to the history, which shows it), the dialog closes.
  const sent = useRef(false);
  useEffect(() => {
    if (rollback.state !== "idle") sent.current = true;
    else if (sent.current) {
      sent.current = false;
      if (!rollback.data?.error) onClose();
    }
  }, [rollback.state, rollback.data, onClose]);
  return (
    <Modal opened={path !== null} onClose={onClose} title="Roll back to this version" size="lg">
      {!answer ? (
        <Group justify="center" p="md">
          <Loader size="sm" aria-label="Loading the version" />
        </Group>
      ) : !answer.ok ? (
        <Alert color="red" role="alert">
          {answer.message}
        </Alert>
      ) : (
        <rollback.Form method="post" action={path ?? undefined}>
          <input type="hidden" name="number" value={answer.version.number} />
          <Stack gap="md">
            <Text size="sm">
              Version {answer.version.number}
              {answer.version.image ? ` (${answer.version.image})` : ""} will be deployed again, exactly as it
              ran
              {answer.version.imageDigest ? ` (${answer.version.imageDigest.slice(0, 19)}…)` : ""}. What
              changes against the running version:
            </Text>
            <DiffTable diff={answer.diff} label="Changes against the running version" />
            {rollback.data?.error ? (
              <Alert color="red" role="alert">
                {rollback.data.error}
              </Alert>
            ) : null}
            <Group justify="flex-end">
              <Button variant="ghostSecondary" onClick={onClose}>
                Cancel
              </Button>
              <Button type="submit" loading={rollback.state !== "idle"} disabled={answer.version.running}>
                Roll back
              </Button>
            </Group>
          </Stack>
        </rollback.Form>
      )}
    </Modal>
  );
}
