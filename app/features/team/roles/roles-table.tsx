import { Anchor, Badge, Group, List, Table, Text } from "@mantine/core";
import { Link } from "@remix-run/react";
import { permissionDescriptions, permissions } from "#contract/permissions";
import type { Role } from "#contract/users";
import { Button } from "~/components/button";
import { teamPagePaths } from "../paths";

/** The roles with what each allows and how many members hold it; custom roles can be edited and deleted. */
export function RolesTable({
  roles,
  holders,
  canManage,
  onDelete,
}: {
  roles: Role[];
  holders: Record<string, number>;
  canManage: boolean;
  onDelete: (role: Role) => void;
}) {
  return (
    <Table aria-label="Roles" verticalSpacing="md">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Role</Table.Th>
          <Table.Th>Permissions</Table.Th>
          <Table.Th>Members</Table.Th>
          {canManage ? <Table.Th aria-label="Actions" /> : null}
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {roles.map((role) => (
          <Table.Tr key={role.id} data-testid={`role-${role.name}`}>
            <Table.Td valign="top">
              <Group gap="xs">
                <Text fw={600}>{role.name}</Text>
                <Badge variant="light" color={role.builtIn ? "gray" : "blue"} tt="none">
                  {role.builtIn ? "Built-in" : "Custom"}
                </Badge>
              </Group>
              {role.description ? (
                <Text size="sm" c="dimmed">
                  {role.description}
                </Text>
              ) : null}
            </Table.Td>
            <Table.Td valign="top">
              {role.permissions.length === permissions.length ? (
                <Text size="sm">Every permission</Text>
              ) : (
                <List size="sm" spacing={2}>
                  {role.permissions.map((permission) => (
                    <List.Item key={permission}>{permissionDescriptions[permission]}</List.Item>
                  ))}
                </List>
              )}
            </Table.Td>
            <Table.Td valign="top">{holders[role.id] ?? 0}</Table.Td>
            {canManage ? (
              <Table.Td valign="top">
                {role.builtIn ? null : (
                  <Group gap="xs" wrap="nowrap">
                    <Anchor
                      component={Link}
                      to={teamPagePaths.editRole(role.id)}
                      aria-label={`Edit ${role.name}`}
                    >
                      Edit
                    </Anchor>
                    <Button
                      variant="ghost"
                      size="small"
                      onClick={() => onDelete(role)}
                      aria-label={`Delete ${role.name}`}
                    >
                      Delete
                    </Button>
                  </Group>
                )}
              </Table.Td>
            ) : null}
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
