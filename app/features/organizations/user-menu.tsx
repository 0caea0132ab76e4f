import { Avatar, Group, Menu, Stack, Text, UnstyledButton } from "@mantine/core";
import { Form } from "@remix-run/react";
import { useState } from "react";
import { useAnalytics } from "~/features/analytics/analytics-provider";
import { MENU_MIN_WIDTH } from "~/layout";
import { SwitchOrganizationDialog, type OrganizationOption } from "./switch-organization-dialog";

export type UserMenuProps = {
  user: { name: string; email: string; picture: string | null };
  organization: OrganizationOption;
  organizations: OrganizationOption[];
};

export function initials(name: string): string {
  return name
    .split(/\s+/)
    .map((part) => part[0] ?? "")
    .join("")
    .slice(0, 2)
    .toUpperCase();
}

/** SPEC §2.6: avatar and name; the current organization, 'Switch organization' (several only) and 'Logout'. */
export function UserMenu({ user, organization, organizations }: UserMenuProps) {
  const [switching, setSwitching] = useState(false);
  const analytics = useAnalytics();
  return (
    <>
      <Menu position="bottom-end" withinPortal>
        <Menu.Target>
          <UnstyledButton aria-label={`Account menu of ${user.name}`}>
            <Group gap="xs" wrap="nowrap">
              <Avatar src={user.picture} alt="" radius="xl" size="sm" color="purple">
                {initials(user.name)}
              </Avatar>
              <Stack gap={0}>
                <Text size="sm" fw={600} data-testid="user-name">
                  {user.name}
                </Text>
                <Text size="xs" c="dimmed" data-testid="current-organization">
                  {organization.displayName}
                </Text>
              </Stack>
            </Group>
          </UnstyledButton>
        </Menu.Target>
        <Menu.Dropdown miw={MENU_MIN_WIDTH}>
          <Menu.Label>{user.email}</Menu.Label>
          <Menu.Item disabled>{organization.displayName}</Menu.Item>
          {organizations.length > 1 ? (
            <Menu.Item onClick={() => setSwitching(true)}>Switch organization</Menu.Item>
          ) : null}
          <Menu.Divider />
          <Form method="post" action="/auth/logout" reloadDocument onSubmit={() => analytics.reset()}>
            <Menu.Item component="button" type="submit" color="red">
              Logout
            </Menu.Item>
          </Form>
        </Menu.Dropdown>
      </Menu>
      <SwitchOrganizationDialog
        opened={switching}
        onClose={() => setSwitching(false)}
        current={organization}
        organizations={organizations}
      />
    </>
  );
}
