import { AppShell, Group, NavLink, Stack, Text, Tooltip } from "@mantine/core";
import { Link, NavLink as RemixNavLink, useLocation } from "@remix-run/react";
import { useState, type ReactNode } from "react";
import { Button } from "~/components/button";
import { CollapseSidebarIcon, ExpandSidebarIcon } from "~/components/icons";
import { useRootData } from "~/hooks/use-root-data";
import { APP_BAR_HEIGHT } from "~/layout";
import { isActiveItem, shortLabel, sidebarWidth, type NavItem } from "./navigation";
import { sidebarCookie } from "./sidebar-state";

export type AppLayoutProps = {
  /** The sidebar's entries; `appNavigation` lists every area that exists. */
  navigation: readonly NavItem[];
  /** Slot in the app bar, after the product name. */
  environmentPicker?: ReactNode;
  /** Slot at the app bar's end. */
  userMenu: ReactNode;
  children: ReactNode;
};

const SIDEBAR_ID = "app-sidebar";
const MAIN_ID = "main-content";

/**
 * The application shell (SPEC §2.7, §9): a 65 px app bar with the environment picker and user menu, and a
 * sidebar of 186 px that collapses to 52 px. The collapsed state comes from the root loader (a cookie), so the
 * server renders the right width and a reload keeps it.
 */
export function AppLayout({ navigation, environmentPicker, userMenu, children }: AppLayoutProps) {
  const [collapsed, setCollapsed] = useState(useRootData()?.sidebarCollapsed ?? false);
  const { pathname } = useLocation();

  const toggle = () => {
    const next = !collapsed;
    setCollapsed(next);
    document.cookie = sidebarCookie(next, { secure: window.location.protocol === "https:" });
  };

  return (
    <AppShell
      header={{ height: APP_BAR_HEIGHT }}
      navbar={{ width: sidebarWidth(collapsed, navigation), breakpoint: 0 }}
      padding="lg"
    >
      {/* The first stop of the keyboard: past the app bar and the sidebar to the page itself (works without JS). */}
      <a className="skip-link" href={`#${MAIN_ID}`}>
        Skip to content
      </a>
      <AppShell.Header px="md">
        <Group h="100%" justify="space-between" wrap="nowrap">
          <Group gap="md" wrap="nowrap">
            <Text component={Link} to="/" fw={700} c="purple">
              Cloud Console
            </Text>
            {environmentPicker}
          </Group>
          {userMenu}
        </Group>
      </AppShell.Header>
      <AppShell.Navbar
        id={SIDEBAR_ID}
        p="sm"
        aria-label="Main navigation"
        data-testid="sidebar"
        data-collapsed={collapsed || undefined}
      >
        <AppShell.Section grow>
          <Stack gap={4} align={collapsed ? "center" : "stretch"}>
            {navigation.map((item) => (
              <SidebarEntry
                key={item.to}
                item={item}
                collapsed={collapsed}
                active={isActiveItem(pathname, item)}
              />
            ))}
          </Stack>
        </AppShell.Section>
        <AppShell.Section>
          <Group justify={collapsed ? "center" : "flex-end"}>
            <Button
              variant="iconSecondary"
              aria-label={collapsed ? "Expand sidebar" : "Collapse sidebar"}
              aria-expanded={!collapsed}
              aria-controls={SIDEBAR_ID}
              onClick={toggle}
            >
              {collapsed ? <ExpandSidebarIcon /> : <CollapseSidebarIcon />}
            </Button>
          </Group>
        </AppShell.Section>
      </AppShell.Navbar>
      {/* tabIndex -1: the skip link's target takes focus, so the next Tab goes on inside the page. */}
      <AppShell.Main id={MAIN_ID} tabIndex={-1} pos="relative">
        {children}
      </AppShell.Main>
    </AppShell>
  );
}

function SidebarEntry({ item, collapsed, active }: { item: NavItem; collapsed: boolean; active: boolean }) {
  const Icon = item.icon;
  if (!collapsed) {
    return (
      <NavLink
        component={RemixNavLink}
        to={item.to}
        label={item.label}
        leftSection={Icon ? <Icon /> : null}
        active={active}
      />
    );
  }
  return (
    <Tooltip label={item.label} position="right" withArrow>
      {Icon ? (
        <Button
          component={RemixNavLink}
          to={item.to}
          variant={active ? "iconPrimary" : "iconSecondary"}
          aria-label={item.label}
        >
          <Icon />
        </Button>
      ) : (
        <NavLink
          component={RemixNavLink}
          to={item.to}
          label={shortLabel(item)}
          aria-label={item.label}
          active={active}
        />
      )}
    </Tooltip>
  );
}
