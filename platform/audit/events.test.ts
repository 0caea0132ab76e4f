import { describe, expect, it } from "vitest";
import { csvCell } from "./events";

describe("csvCell", () => {
  it("quotes commas, quotes and line breaks", () => {
    expect(csvCell("plain")).toBe("plain");
    expect(csvCell('say "hi", then\nleave')).toBe('"say ""hi"", then\nleave"');
    expect(csvCell(null)).toBe("");
    expect(csvCell(403)).toBe("403");
  });

  it("defuses cells a spreadsheet would run as formulas", () => {
    for (const formula of ["=1+1", "+1", "-1", "@SUM(A1)", "\tx"]) {
      expect(csvCell(formula).replace(/^"/, "")).toMatch(/^'/);
    }
    expect(csvCell("=A1,B1")).toBe(`"'=A1,B1"`);
  });
});
