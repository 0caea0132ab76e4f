import { Alert, Badge, Button, CopyButton, Group, Stack, Text, TextInput } from "@mantine/core";
import type { InvitationStatus, SentInvitation } from "#contract/invitations";
import type { RoleGrant } from "#contract/permissions";
import { formatDateTime } from "~/components/date-time";

const statusColors: Record<InvitationStatus, string> = {
  pending: "blue",
  expired: "orange",
  accepted: "green",
  cancelled: "gray",
};

export function InvitationStatusBadge({ status }: { status: InvitationStatus }) {
  return (
    <Badge color={statusColors[status]} variant="light">
      {status}
    </Badge>
  );
}

/** "developer on staging", "admin on the whole organization". */
export function describeGrants(grants: RoleGrant[], environmentNames: Record<string, string>): string {
  return grants
    .map((grant) => {
      const role = grant.role ?? "custom role";
      const scope = grant.environmentIds
        ? grant.environmentIds.map((id) => environmentNames[id] ?? "a deleted environment").join(", ")
        : "the whole organization";
      return `${role} on ${scope}`;
    })
    .join("; ");
}

export function formatDate(iso: string | null): string {
  return iso ? formatDateTime(iso) : "";
}

/** What happened to each invitation just sent: mailed, or the link to copy (shown this once). */
export function SentInvitations({ sent }: { sent: SentInvitation[] }) {
  return (
    <Stack gap="sm" data-testid="sent-invitations">
      {sent.map(({ invitation, mail }) =>
        mail.delivered ? (
          <Alert key={invitation.id} color="green" title={`Invitation mailed to ${invitation.email}`}>
            The link expires on {formatDate(invitation.expiresAt)}.
          </Alert>
        ) : (
          <Alert key={invitation.id} color="yellow" title={`No mail was sent to ${invitation.email}`}>
            <Stack gap="xs">
              <Text size="sm">
                {mail.reason} Copy the link and send it yourself: it is shown only this once.
              </Text>
              <Group gap="xs" wrap="nowrap">
                <TextInput
                  readOnly
                  value={mail.link}
                  aria-label={`Invitation link for ${invitation.email}`}
                  style={{ flex: 1 }}
                  onFocus={(event) => event.currentTarget.select()}
                />
                <CopyButton value={mail.link}>
                  {({ copied, copy }) => (
                    <Button variant="default" onClick={copy}>
                      {copied ? "Copied" : "Copy link"}
                    </Button>
                  )}
                </CopyButton>
              </Group>
            </Stack>
          </Alert>
        ),
      )}
    </Stack>
  );
}
