import { Anchor, Button, Group, Paper, Stack, Table, Text, Title } from "@mantine/core";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { errorCodes } from "#contract/errors";
import { handleInvitationIntent } from "~/features/team/invitations/invitation-actions.server";
import { InvitationButtons } from "~/features/team/invitations/invitation-buttons";
import {
  describeGrants,
  formatDate,
  InvitationStatusBadge,
  SentInvitations,
} from "~/features/team/invitations/invitation-views";
import { invitationPagePaths } from "~/features/team/invitations/paths";
import { listEnvironments } from "~/platform/environments.server";
import { listInvitations } from "~/platform/invitations.server";
import { requireOrganizationClient } from "~/platform/request.server";
import { throwRouteError } from "~/platform/route-errors.server";

export const meta: MetaFunction = () => [{ title: "Invitations · Cloud Console" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const { api, tenantId, organization, headers } = await requireOrganizationClient(request);
  const [invitations, environments] = await Promise.all([
    listInvitations(api, tenantId),
    listEnvironments(api, tenantId),
  ]).catch((error: unknown) => throwRouteError(error, errorCodes.workspaceListFetch, headers));
  const environmentNames = Object.fromEntries(environments.map(({ id, name }) => [id, name]));
  return data({ organizationName: organization.displayName, invitations, environmentNames }, { headers });
}

export async function action({ request }: ActionFunctionArgs) {
  const client = await requireOrganizationClient(request);
  return handleInvitationIntent(request, client);
}

export default function Invitations() {
  const { organizationName, invitations, environmentNames } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Stack gap={0}>
          <Title order={2}>Invitations</Title>
          <Text c="dimmed" size="sm">
            {organizationName} ·{" "}
            <Anchor component={Link} to={invitationPagePaths.members}>
              Users
            </Anchor>
          </Text>
        </Stack>
        <Button component={Link} to={invitationPagePaths.invite}>
          Invite people
        </Button>
      </Group>
      {actionData?.sent ? <SentInvitations sent={[actionData.sent]} /> : null}
      {invitations.length === 0 ? (
        <Paper withBorder p="xl" data-testid="invitations-empty">
          <Text c="dimmed" ta="center">
            No invitations yet.
          </Text>
        </Paper>
      ) : (
        <Table.ScrollContainer minWidth={720}>
          <Table striped highlightOnHover>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Email</Table.Th>
                <Table.Th>Role</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th>Expires</Table.Th>
                <Table.Th>Invited by</Table.Th>
                <Table.Th aria-label="Actions" />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {invitations.map((invitation) => (
                <Table.Tr key={invitation.id} data-testid={`invitation-${invitation.email}`}>
                  <Table.Td>
                    <Anchor component={Link} to={invitationPagePaths.one(invitation.email)}>
                      {invitation.email}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>{describeGrants(invitation.grants, environmentNames)}</Table.Td>
                  <Table.Td>
                    <InvitationStatusBadge status={invitation.status} />
                  </Table.Td>
                  <Table.Td>{formatDate(invitation.expiresAt)}</Table.Td>
                  <Table.Td>{invitation.invitedBy?.name ?? ""}</Table.Td>
                  <Table.Td>
                    <InvitationButtons invitation={invitation} />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}
