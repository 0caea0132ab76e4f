import { describe, expect, it } from "vitest";
import { checkHelmValues, helmValuesProblem } from "./helm-values";

describe("checkHelmValues", () => {
  it("reads a mapping, and empty values or comments alone as no values", () => {
    expect(checkHelmValues("replicaCount: 2\nimage:\n  tag: 1.27\n")).toEqual({
      ok: true,
      values: { replicaCount: 2, image: { tag: 1.27 } },
    });
    expect(checkHelmValues("")).toEqual({ ok: true, values: {} });
    expect(checkHelmValues("# defaults\n")).toEqual({ ok: true, values: {} });
    expect(helmValuesProblem("a: 1\n")).toBeNull();
  });

  it("names the line and column of a syntax error", () => {
    expect(checkHelmValues("image:\n  repository: nginx\n  tag: 1.27: x\n")).toEqual({
      ok: false,
      line: 3,
      column: 8,
      message: "Line 3, column 8: Nested mappings are not allowed in compact mappings",
    });
    expect(helmValuesProblem("a:\n\t- x\n")).toBe("Line 2, column 1: Tabs are not allowed as indentation");
    expect(helmValuesProblem("a: 1\na: 2\n")).toBe("Line 2, column 1: Map keys must be unique");
    expect(helmValuesProblem("a: [1, 2\n")).toMatch(/^Line 2, column 1: Flow sequence/);
  });

  it("refuses what Helm cannot merge: a list or a scalar at the top, several documents, a dangling alias", () => {
    expect(helmValuesProblem("\n- 1\n- 2\n")).toBe(
      'Line 2, column 1: Values must be a mapping of keys to values, such as "replicaCount: 2"',
    );
    expect(helmValuesProblem("just text")).toMatch(/^Line 1, column 1: Values must be a mapping/);
    expect(helmValuesProblem("a: 1\n---\nb: 2\n")).toBe(
      "Line 2, column 1: Only one YAML document is allowed; remove the --- separator",
    );
    expect(helmValuesProblem("a: *missing\n")).toMatch(/^Line 1, column 1: Unresolved alias/);
  });

  it("refuses aliases that would expand past 100 copies", () => {
    const bomb = ["a: &a [x, x, x, x, x, x, x, x, x, x]", "b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]"];
    bomb.push("c: [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]");
    expect(helmValuesProblem(bomb.join("\n"))).toMatch(/^Line 1, column 1: .*alias/i);
  });
});
