import { describe, expect, it } from "vitest";
import { isSidebarCollapsed, sidebarCookie } from "./sidebar-state";

describe("the sidebar cookie", () => {
  it("reads collapsed only from sidebar=collapsed", () => {
    expect(isSidebarCollapsed("sidebar=collapsed")).toBe(true);
    expect(isSidebarCollapsed("__session=abc; sidebar=collapsed; toast=x")).toBe(true);
    expect(isSidebarCollapsed("sidebar=expanded")).toBe(false);
    expect(isSidebarCollapsed("my-sidebar=collapsed")).toBe(false);
    expect(isSidebarCollapsed(null)).toBe(false);
    expect(isSidebarCollapsed("")).toBe(false);
  });

  it("round-trips what the toggle writes", () => {
    const written = (collapsed: boolean) => sidebarCookie(collapsed, { secure: false }).split(";")[0];
    expect(isSidebarCollapsed(written(true))).toBe(true);
    expect(isSidebarCollapsed(written(false))).toBe(false);
  });

  it("lasts a year, site-wide, and is Secure on https", () => {
    expect(sidebarCookie(true, { secure: false })).toBe(
      "sidebar=collapsed; Path=/; Max-Age=31536000; SameSite=Lax",
    );
    expect(sidebarCookie(false, { secure: true })).toMatch(/; Secure$/);
  });
});
