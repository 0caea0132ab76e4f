import { Anchor, Button, Group, Paper, Stack, Text, Title } from "@mantine/core";
import { data, redirect, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { lastActiveLabel } from "~/features/team/member-roles";
import { MemberRoles } from "~/features/team/members-table";
import { isEmailAddress, teamPagePaths } from "~/features/team/paths";
import { listEnvironmentSummaries } from "~/platform/environments.server";
import { findMemberByEmail, getMember } from "~/platform/members.server";
import { requireOrganizationClient } from "~/platform/request.server";
import { throwRouteError } from "~/platform/route-errors.server";
import { formatDate } from "~/components/date-time";

export const meta: MetaFunction<typeof loader> = ({ data: loaded }) => [
  { title: `${loaded?.member.name ?? "Member"} · Users · Cloud Console` },
];

/**
 * The member's page, by user id; an e-mail address in its place (SPEC §2.2 /settings/users/{email}) opens the
 * page of the organization's member with that address, and any other address is not found.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { api, tenantId, headers } = await requireOrganizationClient(request);
  const userId = params.userId ?? "";
  if (isEmailAddress(userId)) {
    const member = await findMemberByEmail(api, tenantId, userId).catch((error: unknown) =>
      throwRouteError(error, undefined, headers),
    );
    throw redirect(member ? teamPagePaths.member(member.id) : "/404", { headers });
  }
  const [member, environments] = await Promise.all([
    getMember(api, tenantId, userId),
    listEnvironmentSummaries(api, tenantId),
  ]).catch((error: unknown) => throwRouteError(error, undefined, headers));
  return data(
    {
      member,
      environments: environments.map(({ id, name }) => ({ id, name })),
      now: new Date().toISOString(),
    },
    { headers },
  );
}

export default function MemberPage() {
  const { member, environments, now } = useLoaderData<typeof loader>();
  const environmentNames = new Map(environments.map(({ id, name }) => [id, name]));
  return (
    <Stack gap="md" maw={720}>
      <Anchor component={Link} to={teamPagePaths.members} size="sm">
        ← Users
      </Anchor>
      <Group justify="space-between">
        <Stack gap={0}>
          <Title order={2}>{member.name}</Title>
          <Text c="dimmed">{member.email}</Text>
        </Stack>
        <Button component={Link} to={teamPagePaths.editMember(member.id)}>
          Edit roles
        </Button>
      </Group>
      <Paper withBorder p="lg">
        <Stack gap="sm">
          <Title order={3} size="h4">
            Roles
          </Title>
          <MemberRoles member={member} environmentNames={environmentNames} />
          <Text size="sm">
            Last active: {lastActiveLabel(member.lastActiveAt, new Date(now))} · Member since{" "}
            {formatDate(member.joinedAt)}
          </Text>
        </Stack>
      </Paper>
    </Stack>
  );
}
