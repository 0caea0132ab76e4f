import { Anchor, Paper, SimpleGrid, Stack, Text, Title } from "@mantine/core";
import { Link } from "@remix-run/react";
import type { Invitation, SentInvitation } from "#contract/invitations";
import { InvitationButtons } from "./invitation-buttons";
import { describeGrants, formatDate, InvitationStatusBadge, SentInvitations } from "./invitation-views";
import { invitationPagePaths } from "./paths";

/** /settings/users/{email}: the latest invitation of one address, and the earlier ones. */
export function InvitationPage({
  email,
  invitations,
  environmentNames,
  sent,
}: {
  email: string;
  invitations: Invitation[];
  environmentNames: Record<string, string>;
  sent?: SentInvitation | null;
}) {
  const [latest, ...earlier] = invitations;
  if (!latest) return null;
  return (
    <Stack gap="md" maw={720}>
      <Stack gap={0}>
        <Title order={2}>Invitation of {email}</Title>
        <Text c="dimmed" size="sm">
          <Anchor component={Link} to={invitationPagePaths.list}>
            All invitations
          </Anchor>{" "}
          ·{" "}
          <Anchor component={Link} to={invitationPagePaths.members}>
            Users
          </Anchor>
        </Text>
      </Stack>
      {sent ? <SentInvitations sent={[sent]} /> : null}
      <Paper withBorder p="lg" data-testid="invitation">
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <Field label="Status">
            <InvitationStatusBadge status={latest.status} />
          </Field>
          <Field label="Role">{describeGrants(latest.grants, environmentNames)}</Field>
          <Field label="Invited by">{latest.invitedBy?.name ?? "A former member"}</Field>
          <Field label="Sent">{formatDate(latest.sentAt)}</Field>
          <Field label="Expires">{formatDate(latest.expiresAt)}</Field>
          {latest.acceptedAt ? <Field label="Accepted">{formatDate(latest.acceptedAt)}</Field> : null}
          {latest.cancelledAt ? <Field label="Cancelled">{formatDate(latest.cancelledAt)}</Field> : null}
        </SimpleGrid>
        <Stack mt="md">
          <InvitationButtons invitation={latest} />
        </Stack>
      </Paper>
      {earlier.length ? (
        <Text size="sm" c="dimmed">
          Earlier: {earlier.map((one) => `${one.status} (${formatDate(one.createdAt)})`).join(", ")}
        </Text>
      ) : null}
    </Stack>
  );
}

function Field({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <Stack gap={2}>
      <Text size="xs" c="dimmed" tt="uppercase">
        {label}
      </Text>
      <div>{children}</div>
    </Stack>
  );
}
