import { Anchor, Avatar, Box, Group, Menu, Paper, Stack, Text, UnstyledButton } from "@mantine/core";
import { useMounted } from "@mantine/hooks";
import { Form, Link } from "@remix-run/react";
import { lazy, Suspense, useState } from "react";
import { useAnalytics } from "~/features/analytics/analytics-provider";
import { settingsPaths } from "~/features/settings/paths";
import { MENU_MIN_WIDTH } from "~/layout";
import type { OrganizationOption } from "./switch-organization-dialog";

// The dialog (Modal, with its scroll area, focus trap and scroll lock) loads when the menu first opens, before its
// item can be chosen: most visits never switch (first-visit bytes, decision 064).
const switchOrganizationDialog = () => import("./switch-organization-dialog");
const SwitchOrganizationDialog = lazy(() =>
  switchOrganizationDialog().then((module) => ({ default: module.SwitchOrganizationDialog })),
);

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

function Identity({ user, organization }: Pick<UserMenuProps, "user" | "organization">) {
  return (
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
  );
}

/** The organization switch page: the dialog's way without JavaScript. */
export const SWITCH_ORGANIZATION_PATH = "/organizations/switch";

/**
 * SPEC §2.6: avatar and name; the current organization (opening its overview in the settings), 'Switch
 * organization' (several only) and 'Logout'.
 */
export function UserMenu(props: UserMenuProps) {
  // The menu needs JavaScript; until it runs (or without it) a disclosure offers the same items.
  return useMounted() ? <UserMenuDropdown {...props} /> : <UserMenuDisclosure {...props} />;
}

function UserMenuDisclosure({ user, organization, organizations }: UserMenuProps) {
  return (
    <Box component="details" pos="relative">
      <Box component="summary" aria-label={`Account menu of ${user.name}`} style={{ cursor: "pointer" }}>
        <Identity user={user} organization={organization} />
      </Box>
      <Paper
        withBorder
        shadow="md"
        p="xs"
        pos="absolute"
        right={0}
        miw={MENU_MIN_WIDTH}
        style={{ zIndex: 300 }}
      >
        <Stack gap={4}>
          <Text size="xs" c="dimmed">
            {user.email}
          </Text>
          <Anchor href={settingsPaths.organizationOverview} size="sm">
            {organization.displayName}
          </Anchor>
          {organizations.length > 1 ? (
            <Anchor href={SWITCH_ORGANIZATION_PATH} size="sm">
              Switch organization
            </Anchor>
          ) : null}
          <form method="post" action="/auth/logout">
            <UnstyledButton type="submit" fz="sm" c="red">
              Logout
            </UnstyledButton>
          </form>
        </Stack>
      </Paper>
    </Box>
  );
}

function UserMenuDropdown({ user, organization, organizations }: UserMenuProps) {
  const [switching, setSwitching] = useState(false);
  // Mounted from the first switch on, so that closing plays the dialog's transition as before.
  const [switchAsked, setSwitchAsked] = useState(false);
  const analytics = useAnalytics();
  return (
    <>
      <Menu
        position="bottom-end"
        withinPortal
        onOpen={organizations.length > 1 ? () => void switchOrganizationDialog() : undefined}
      >
        <Menu.Target>
          <UnstyledButton aria-label={`Account menu of ${user.name}`}>
            <Identity user={user} organization={organization} />
          </UnstyledButton>
        </Menu.Target>
        <Menu.Dropdown miw={MENU_MIN_WIDTH}>
          <Menu.Label>{user.email}</Menu.Label>
          <Menu.Item component={Link} to={settingsPaths.organizationOverview}>
            {organization.displayName}
          </Menu.Item>
          {organizations.length > 1 ? (
            <Menu.Item
              onClick={() => {
                setSwitchAsked(true);
                setSwitching(true);
              }}
            >
              Switch organization
            </Menu.Item>
          ) : null}
          <Menu.Divider />
          <Form method="post" action="/auth/logout" reloadDocument onSubmit={() => analytics.reset()}>
            <Menu.Item component="button" type="submit" color="red">
              Logout
            </Menu.Item>
          </Form>
        </Menu.Dropdown>
      </Menu>
      {switchAsked ? (
        <Suspense fallback={null}>
          <SwitchOrganizationDialog
            opened={switching}
            onClose={() => setSwitching(false)}
            current={organization}
            organizations={organizations}
          />
        </Suspense>
      ) : null}
    </>
  );
}
