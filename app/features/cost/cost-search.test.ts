import { describe, expect, it } from "vitest";
import { costSearchString } from "./cost-search";
import { buildCostSearch } from "./cost-search.server";

const search = (query: string) => buildCostSearch(new URLSearchParams(query));

describe("the cost pages' window", () => {
  it("is the last 30 days unless the address says otherwise", () => {
    expect(search("")).toMatchObject({ kind: "query", query: { window: "30d" } });
    expect(search("window=mtd&environmentId=")).toMatchObject({ kind: "query", query: { window: "mtd" } });
  });

  it("sends a custom range's days, and ignores days left over from a custom range for another window", () => {
    expect(search("window=custom&from=2026-01-01&to=2026-01-31")).toEqual({
      kind: "query",
      query: { window: "custom", from: "2026-01-01", to: "2026-01-31" },
      values: { window: "custom", from: "2026-01-01", to: "2026-01-31", environmentId: "" },
    });
    expect(search("window=7d&from=2026-01-01")).toMatchObject({ kind: "query", query: { window: "7d" } });
  });

  it("tells a custom range without its days, out of SPEC §5's bounds or backwards on its fields", () => {
    expect(search("window=custom")).toMatchObject({
      kind: "invalid",
      fieldErrors: { from: ["From is a required field"], to: ["To is a required field"] },
    });
    expect(search("window=custom&from=1899-12-31&to=2026-01-01")).toMatchObject({
      kind: "invalid",
      fieldErrors: { from: ["From must be between 1900-01-01 and 2099-12-31"] },
    });
    expect(search("window=custom&from=2026-02-01&to=2026-01-01")).toMatchObject({
      kind: "invalid",
      fieldErrors: { to: ["To must be on or after From"] },
    });
    expect(search("window=year")).toMatchObject({
      kind: "invalid",
      fieldErrors: { window: ["Choose a window from the list"] },
    });
  });

  it("keeps the window in the links between pages, with a custom range's days only", () => {
    const values = { window: "7d" as const, from: "2026-01-01", to: "", environmentId: "env-1" };
    expect(costSearchString(values)).toBe("?window=7d&environmentId=env-1");
    expect(costSearchString(values, { window: "custom", to: "2026-01-02" })).toBe(
      "?window=custom&from=2026-01-01&to=2026-01-02&environmentId=env-1",
    );
  });
});
