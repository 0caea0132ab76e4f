import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { themeCssFile, themeVariablesCss } from "./theme-css";

describe("app/styles/theme-variables.css", () => {
  it("holds the CSS variables MantineProvider writes for the theme (else run `npx tsx scripts/theme-css.tsx`)", () => {
    expect(readFileSync(themeCssFile, "utf8")).toBe(themeVariablesCss());
  });
});
