import { Group, Modal, Stack, Text } from "@mantine/core";
import type { ReactNode } from "react";
import { Button } from "./button";

/**
 * Asks before a change (to the team, a relaunch): the confirm button submits the form named by `formId` (with its
 * intent), so the dialog adds a question, never a second way to submit.
 */
export function ConfirmDialog({
  opened,
  onClose,
  title,
  children,
  formId,
  intent,
  confirmLabel,
  danger = false,
  busy,
}: {
  opened: boolean;
  onClose: () => void;
  title: string;
  children: ReactNode;
  formId: string;
  intent: string;
  confirmLabel: string;
  danger?: boolean;
  busy: boolean;
}) {
  return (
    <Modal opened={opened} onClose={onClose} title={title} centered>
      <Stack gap="md">
        <Text>{children}</Text>
        <Group justify="flex-end" gap="sm">
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button
            type="submit"
            form={formId}
            name="intent"
            value={intent}
            variant={danger ? "danger" : "primary"}
            loading={busy}
          >
            {confirmLabel}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
