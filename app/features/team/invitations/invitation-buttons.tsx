import { Button, Group, Modal, Text } from "@mantine/core";
import { useDisclosure } from "@mantine/hooks";
import { Form, useNavigation } from "@remix-run/react";
import type { Invitation } from "#contract/invitations";

/** Re-send (pending or expired) and cancel with confirmation, for one open invitation. */
export function InvitationButtons({ invitation }: { invitation: Invitation }) {
  const [confirming, { open, close }] = useDisclosure(false);
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formData?.get("email") === invitation.email;
  if (invitation.status !== "pending" && invitation.status !== "expired") return null;
  return (
    <Group gap="xs" wrap="nowrap">
      <Form method="post">
        <input type="hidden" name="email" value={invitation.email} />
        <Button
          type="submit"
          name="intent"
          value="reinvite"
          size="xs"
          variant="default"
          loading={busy && navigation.formData?.get("intent") === "reinvite"}
          aria-label={`Re-send the invitation to ${invitation.email}`}
        >
          Re-send
        </Button>
      </Form>
      <Button
        size="xs"
        color="red"
        variant="subtle"
        onClick={open}
        aria-label={`Cancel the invitation to ${invitation.email}`}
      >
        Cancel
      </Button>
      <Modal opened={confirming} onClose={close} title="Cancel invitation">
        <Text mb="md">
          Cancel the invitation to {invitation.email}? Its link stops working; you can invite the address
          again later.
        </Text>
        <Form method="post" onSubmit={close}>
          <input type="hidden" name="email" value={invitation.email} />
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Keep it
            </Button>
            <Button type="submit" name="intent" value="cancel" color="red">
              Cancel invitation
            </Button>
          </Group>
        </Form>
      </Modal>
    </Group>
  );
}
