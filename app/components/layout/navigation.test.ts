import { describe, expect, it } from "vitest";
import { EnvironmentsIcon } from "~/components/icons";
import {
  allowedNavigation,
  appNavigation,
  isActiveItem,
  isActivePath,
  shortLabel,
  sidebarWidth,
  type NavItem,
} from "./navigation";

describe("the sidebar", () => {
  it("is 186 px open and 52 px collapsed", () => {
    expect(sidebarWidth(false, appNavigation)).toBe(186);
    expect(sidebarWidth(true, appNavigation)).toBe(52);
  });

  it("falls back to 80 px collapsed while an entry has no icon to fit the 52 px rail", () => {
    const items: NavItem[] = [
      { label: "Environments", to: "/environments", icon: EnvironmentsIcon },
      { label: "Marketplace", to: "/mp", shortLabel: "MP" },
    ];
    expect(sidebarWidth(true, items)).toBe(80);
    expect(sidebarWidth(false, items)).toBe(186);
    expect(shortLabel(items[1] as NavItem)).toBe("MP");
    expect(shortLabel({ label: "Cost", to: "/cost" })).toBe("Cos");
  });

  it("links only to areas that exist", () => {
    expect(appNavigation.map((item) => item.to)).toEqual([
      "/environments",
      "/services",
      "/applications",
      "/cost",
      "/infrastructure",
      "/mp",
      "/settings/users",
    ]);
  });

  it("shows Cost only to members who may see costs (billing.view)", () => {
    const labels = (can: (permission: string) => boolean) =>
      allowedNavigation(appNavigation, can).map((item) => item.label);
    expect(labels(() => true)).toContain("Cost");
    expect(labels((permission) => permission !== "billing.view")).not.toContain("Cost");
    expect(labels((permission) => permission !== "billing.view")).toContain("Services");
  });

  it("marks Settings active on every settings page, not only the members list it opens", () => {
    const settings = appNavigation.find((item) => item.label === "Settings") as NavItem;
    expect(isActiveItem("/settings/users", settings)).toBe(true);
    expect(isActiveItem("/settings/audit-log", settings)).toBe(true);
    expect(isActiveItem("/settings-old", settings)).toBe(false);
    expect(isActiveItem("/environments", settings)).toBe(false);
  });

  it("marks an area active on its pages and below, not on look-alike paths", () => {
    expect(isActivePath("/environments", "/environments")).toBe(true);
    expect(isActivePath("/environments/create", "/environments")).toBe(true);
    expect(isActivePath("/environments-old", "/environments")).toBe(false);
    expect(isActivePath("/env/production", "/environments")).toBe(false);
    expect(isActivePath("/env/production/services/r1", "/services")).toBe(true);
    expect(isActivePath("/env/production/applications/list", "/applications")).toBe(true);
    expect(isActivePath("/env/production/variables", "/services")).toBe(false);
    expect(isActivePath("/env/production/infrastructure/overview", "/infrastructure")).toBe(true);
  });
});
