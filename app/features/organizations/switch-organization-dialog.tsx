import { Button, Group, Modal, Stack } from "@mantine/core";
import { useSubmit } from "@remix-run/react";
import { showToast } from "~/components/toaster";

export type OrganizationOption = { id: string; displayName: string };

/** SPEC §2.6: the switch toast stays 1.5 s, then the switch happens. */
export const SWITCH_TOAST_MS = 1500;

/** SPEC §2.6 'Switch organization' dialog: organizations by display name, the current one disabled. */
export function SwitchOrganizationDialog({
  opened,
  onClose,
  current,
  organizations,
}: {
  opened: boolean;
  onClose: () => void;
  current: OrganizationOption;
  organizations: OrganizationOption[];
}) {
  const submit = useSubmit();
  const choose = (organization: OrganizationOption) => {
    onClose();
    showToast({
      variant: "success",
      message: `Switching to ${organization.displayName}`,
      autoClose: SWITCH_TOAST_MS,
    });
    setTimeout(
      () => submit({ organizationId: organization.id }, { method: "post", action: "/organizations/switch" }),
      SWITCH_TOAST_MS,
    );
  };
  return (
    <Modal opened={opened} onClose={onClose} title="Switch organization" centered>
      <Stack gap="xs">
        {[...organizations]
          .sort((a, b) => a.displayName.localeCompare(b.displayName))
          .map((organization) => (
            <Button
              key={organization.id}
              variant={organization.id === current.id ? "light" : "default"}
              disabled={organization.id === current.id}
              onClick={() => choose(organization)}
              justify="flex-start"
            >
              {organization.displayName}
            </Button>
          ))}
        <Group justify="flex-end" mt="sm">
          <Button variant="subtle" onClick={onClose}>
            Close
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
