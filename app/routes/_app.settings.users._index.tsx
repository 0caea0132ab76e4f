import { Button, Group, Stack, Text, TextInput, Title } from "@mantine/core";
import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { matchesMember } from "~/features/team/member-roles";
import { MembersTable } from "~/features/team/members-table";
import { teamPagePaths } from "~/features/team/paths";
import { listEnvironmentSummaries } from "~/platform/environments.server";
import { listMembers } from "~/platform/members.server";
import { requireOrganizationClient } from "~/platform/request.server";
import { throwRouteError } from "~/platform/route-errors.server";

export const meta: MetaFunction = () => [{ title: "Users · Cloud Console" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const { api, tenantId, headers } = await requireOrganizationClient(request);
  const query = new URL(request.url).searchParams.get("q") ?? "";
  const [members, environments] = await Promise.all([
    listMembers(api, tenantId),
    listEnvironmentSummaries(api, tenantId),
  ]).catch((error: unknown) => throwRouteError(error, undefined, headers));
  return data(
    {
      query,
      total: members.length,
      members: members.filter((member) => matchesMember(member, query)),
      environments: environments.map(({ id, name }) => ({ id, name })),
      now: new Date().toISOString(),
    },
    { headers },
  );
}

export default function MembersPage() {
  const { query, total, members, environments, now } = useLoaderData<typeof loader>();
  const environmentNames = new Map(environments.map(({ id, name }) => [id, name]));
  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Title order={2}>Users</Title>
        <Group gap="sm">
          <Button component={Link} to={teamPagePaths.organizationOverview} variant="default">
            Organization overview
          </Button>
          <Button component={Link} to={teamPagePaths.roles} variant="default">
            Roles
          </Button>
          <Button component={Link} to={teamPagePaths.serviceAccounts} variant="default">
            Service accounts
          </Button>
          <Button component={Link} to={teamPagePaths.invite}>
            Invite people
          </Button>
        </Group>
      </Group>
      <Form method="get" role="search">
        <Group gap="sm" align="flex-end">
          <TextInput
            name="q"
            label="Search members"
            placeholder="Name or e-mail"
            defaultValue={query}
            type="search"
            w={320}
          />
          <Button type="submit" variant="default">
            Search
          </Button>
        </Group>
      </Form>
      <Text c="dimmed" size="sm">
        {query ? `${members.length} of ${total} members match “${query}”` : `${total} members`}
      </Text>
      <MembersTable members={members} environmentNames={environmentNames} now={new Date(now)} />
    </Stack>
  );
}
