import { Group, Modal, Stack, Text } from "@mantine/core";
import type { Blocker } from "@remix-run/react";
import { Button } from "~/components/button";

/** SPEC §2.7 unsaved-changes dialog for the blocker of `useUnsavedChanges`. */
export function UnsavedChangesDialog({
  blocker,
  text = "Are you sure you want to discard the changes",
}: {
  blocker: Blocker;
  text?: string;
}) {
  const stay = () => blocker.reset?.();
  return (
    <Modal
      opened={blocker.state === "blocked"}
      onClose={stay}
      title="You have unsaved changes"
      centered
      styles={{ title: { fontWeight: 600 } }}
    >
      <Stack gap="lg">
        <Text>{text}</Text>
        <Group justify="flex-end" gap="sm">
          <Button variant="secondary" onClick={stay} data-autofocus>
            Review changes
          </Button>
          <Button variant="danger" onClick={() => blocker.proceed?.()}>
            Discard changes and exit
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
