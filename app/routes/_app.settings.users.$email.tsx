import { Anchor, Paper, SimpleGrid, Stack, Text, Title } from "@mantine/core";
import {
  data,
  redirect,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
} from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { errorCodes } from "#contract/errors";
import { invitationEmailSchema } from "#contract/invitations";
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

export const meta: MetaFunction = () => [{ title: "Invitation · Cloud Console" }];

/** /settings/users/{email}: the latest invitation of one address, and the earlier ones. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { api, tenantId, headers } = await requireOrganizationClient(request);
  const email = invitationEmailSchema.safeParse(params.email);
  if (!email.success) throw redirect("/404", { headers });
  const [invitations, environments] = await Promise.all([
    listInvitations(api, tenantId, email.data),
    listEnvironments(api, tenantId),
  ]).catch((error: unknown) => throwRouteError(error, errorCodes.workspaceListFetch, headers));
  if (invitations.length === 0) throw redirect("/404", { headers });
  const environmentNames = Object.fromEntries(environments.map(({ id, name }) => [id, name]));
  return data({ email: email.data, invitations, environmentNames }, { headers });
}

export async function action({ request }: ActionFunctionArgs) {
  const client = await requireOrganizationClient(request);
  return handleInvitationIntent(request, client);
}

export default function InvitationPage() {
  const { email, invitations, environmentNames } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
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
      {actionData?.sent ? <SentInvitations sent={[actionData.sent]} /> : null}
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
