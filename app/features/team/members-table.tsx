import { Anchor, Badge, Group, Table, Text } from "@mantine/core";
import { Link } from "@remix-run/react";
import type { Member } from "#contract/users";
import { describeGrant, lastActiveLabel } from "./member-roles";
import { teamPagePaths } from "./paths";

/** The members with their roles (and where each applies) and when they were last active. */
export function MembersTable({
  members,
  environmentNames,
  now,
}: {
  members: Member[];
  environmentNames: ReadonlyMap<string, string>;
  now: Date;
}) {
  return (
    <Table striped highlightOnHover aria-label="Members">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Name</Table.Th>
          <Table.Th>E-mail</Table.Th>
          <Table.Th>Roles</Table.Th>
          <Table.Th>Last active</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {members.map((member) => (
          <Table.Tr key={member.id}>
            <Table.Td>
              <Anchor component={Link} to={teamPagePaths.member(member.id)}>
                {member.name}
              </Anchor>
            </Table.Td>
            <Table.Td>{member.email}</Table.Td>
            <Table.Td>
              <MemberRoles member={member} environmentNames={environmentNames} />
            </Table.Td>
            <Table.Td>
              <Text size="sm" title={member.lastActiveAt ?? undefined}>
                {lastActiveLabel(member.lastActiveAt, now)}
              </Text>
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

export function MemberRoles({
  member,
  environmentNames,
}: {
  member: Pick<Member, "roles">;
  environmentNames: ReadonlyMap<string, string>;
}) {
  if (member.roles.length === 0) return <Text size="sm">No role (can view)</Text>;
  return (
    <Group gap={4}>
      {member.roles.map((grant, index) => (
        <Badge key={index} variant="light" tt="none">
          {describeGrant(grant, environmentNames)}
        </Badge>
      ))}
    </Group>
  );
}
