import { describe, expect, it } from "vitest";
import { HTML_FONT_SIZE, palette, shadesAround, spacing, theme } from "./theme";

describe("the theme (SPEC §9)", () => {
  it("uses the product palette at the primary shade", () => {
    const shade = theme.primaryShade as number;
    expect(theme.primaryColor).toBe("purple");
    expect(theme.colors?.purple?.[shade]).toBe(palette.primary.toLowerCase());
    expect(theme.colors?.success?.[shade]).toBe("#00b88c");
    expect(theme.colors?.error?.[shade]).toBe("#e91f04");
    expect(theme.colors?.warning?.[shade]).toBe("#f39c12");
    expect(theme.colors?.red?.[shade]).toBe("#e91f04");
  });

  it("has ten shades from light to dark", () => {
    const shades = shadesAround("#6E27D5");
    expect(shades).toHaveLength(10);
    const lightness = shades.map((hex) =>
      [1, 3, 5].reduce((sum, at) => sum + Number.parseInt(hex.slice(at, at + 2), 16), 0),
    );
    expect([...lightness].sort((a, b) => b - a)).toEqual(lightness);
  });

  it("has the breakpoints 375, 768, 1280 and 1440 px (em of 16 px)", () => {
    const px = (em: string | undefined) => Number.parseFloat(em ?? "0") * 16;
    expect(px(theme.breakpoints?.xs)).toBe(375);
    expect(px(theme.breakpoints?.sm)).toBe(768);
    expect(px(theme.breakpoints?.md)).toBe(1280);
    expect(px(theme.breakpoints?.lg)).toBe(1440);
  });

  it("spaces in 8 px units, rounds 4 px, writes Inter and Roboto Mono, and keeps rem sizes at 16 px per rem", () => {
    expect(spacing(1)).toBe("8px");
    expect(theme.spacing?.md).toBe("16px");
    expect(theme.radius?.[theme.defaultRadius as "sm"]).toBe("4px");
    expect(theme.fontFamily).toMatch(/^Inter/);
    expect(theme.fontFamilyMonospace).toMatch(/Roboto Mono/);
    expect(theme.fontSizes?.md).toBe("16px");
    expect((theme.scale ?? 1) * HTML_FONT_SIZE).toBe(16);
  });
});
