import { describe, expect, it } from "vitest";
import { formatLayerTable } from "./layer-table.mjs";

describe("the layer table printed at the end of npm test and .ci/run", () => {
  it("lists each layer with its tests and seconds, and the total", () => {
    const table = formatLayerTable([
      { name: "install", seconds: 61.04 },
      { name: "vitest", tests: 1777, seconds: 300 },
    ]);
    expect(table.trim().split("\n")).toEqual([
      "| layer   | tests | seconds |",
      "|---------|------:|--------:|",
      "| install |       |    61.0 |",
      "| vitest  |  1777 |   300.0 |",
      "| total   |       |   361.0 |",
    ]);
  });
});
