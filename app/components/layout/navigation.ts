import type { ComponentType } from "react";
import type { Permission } from "#contract/permissions";
import {
  ApplicationsIcon,
  CostIcon,
  EnvironmentsIcon,
  InfrastructureIcon,
  MarketplaceIcon,
  ServicesIcon,
  SettingsIcon,
  type IconProps,
} from "~/components/icons";
import { SIDEBAR_COLLAPSED_WIDTH, SIDEBAR_FALLBACK_WIDTH, SIDEBAR_WIDTH } from "~/layout";

export type NavItem = {
  label: string;
  to: string;
  /** The pages the entry stands for, when more than those below `to` (Settings opens /settings/users). */
  area?: string;
  /** Shown alone in the collapsed sidebar. */
  icon?: ComponentType<IconProps>;
  /** Shown in the collapsed sidebar when there is no icon; defaults to the label's first three letters. */
  shortLabel?: string;
  /** Shown only to members who hold it (decision 021): the area would refuse them anyway. */
  permission?: Permission;
};

/**
 * The sidebar's entries, one per SPEC §2.2 area that exists. Each issue that builds an area adds its entry
 * here (Services, Applications, Connections, Cost, Infrastructure, Users, Marketplace, ...); areas not built
 * yet have none, so no link leads nowhere.
 */
export const appNavigation: readonly NavItem[] = [
  { label: "Environments", to: "/environments", icon: EnvironmentsIcon },
  { label: "Services", to: "/services", icon: ServicesIcon },
  { label: "Applications", to: "/applications", icon: ApplicationsIcon },
  { label: "Cost", to: "/cost", icon: CostIcon, permission: "billing.view" },
  { label: "Infrastructure", to: "/infrastructure", icon: InfrastructureIcon },
  { label: "Marketplace", to: "/mp", icon: MarketplaceIcon },
  { label: "Settings", to: "/settings/users", area: "/settings", icon: SettingsIcon },
];

/** The entries a member may use, `can` telling whether they hold a permission in the organization. */
export function allowedNavigation(
  items: readonly NavItem[],
  can: (permission: Permission) => boolean,
): NavItem[] {
  return items.filter((item) => !item.permission || can(item.permission));
}

/**
 * SPEC §2.7/§9 sidebar width: 186 px open, 52 px collapsed. The 52 px rail only fits icons: while an entry has
 * no icon the collapsed width cannot apply, and the rail falls back to 80 px, wide enough for its short label.
 */
export function sidebarWidth(collapsed: boolean, items: readonly NavItem[]): number {
  if (!collapsed) return SIDEBAR_WIDTH;
  return items.every((item) => item.icon) ? SIDEBAR_COLLAPSED_WIDTH : SIDEBAR_FALLBACK_WIDTH;
}

/** Whether `pathname` is among the pages of the sidebar entry `item`. */
export function isActiveItem(pathname: string, item: NavItem): boolean {
  return isActivePath(pathname, item.area ?? item.to);
}

export function shortLabel(item: NavItem): string {
  return item.shortLabel ?? item.label.slice(0, 3);
}

/**
 * Whether `pathname` is inside the area `to` (the area itself or a page below it). Areas whose pages live under
 * an environment (`/services` redirects to `/env/{name}/services`) are active there too.
 */
export function isActivePath(pathname: string, to: string): boolean {
  const inArea = (path: string) => path === to || path.startsWith(to.endsWith("/") ? to : `${to}/`);
  const environmentScoped = /^\/env\/[^/]+(\/.+)$/.exec(pathname)?.[1];
  return inArea(pathname) || (environmentScoped !== undefined && inArea(environmentScoped));
}
