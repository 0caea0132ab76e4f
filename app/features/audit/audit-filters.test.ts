import { describe, expect, it } from "vitest";
import { NUL_CHARACTER_MESSAGE } from "#contract/validation";
import { buildAuditSearch, searchWith } from "./audit-filters";

describe("buildAuditSearch", () => {
  it("reports a NUL character in any filter as that field's error, keeping the other filters' values", () => {
    expect(buildAuditSearch(new URLSearchParams("userId=%00&action=services.delete"))).toEqual({
      kind: "invalid",
      fieldErrors: { userId: [NUL_CHARACTER_MESSAGE] },
      values: { userId: "\u0000", action: "services.delete", environmentId: "", from: "", to: "" },
    });
    expect(buildAuditSearch(new URLSearchParams("environmentId=e%00"))).toMatchObject({
      kind: "invalid",
      fieldErrors: { environmentId: [NUL_CHARACTER_MESSAGE] },
    });
  });

  it("reads the filters, pickers' values as UTC, and the page", () => {
    const search = buildAuditSearch(
      new URLSearchParams(
        "userId=u1&action=services.delete&from=2024-01-02 08:30:00&to=2024-01-03 00:00:00&page=2",
      ),
    );
    expect(search).toMatchObject({
      kind: "query",
      query: {
        userId: "u1",
        action: "services.delete",
        from: "2024-01-02T08:30:00Z",
        to: "2024-01-03T00:00:00Z",
        page: 2,
      },
    });
  });

  it("reports dates outside 1900-2099, an end before the start and a bad environment as field errors", () => {
    expect(buildAuditSearch(new URLSearchParams("from=1899-12-31 23:59:59"))).toMatchObject({
      kind: "invalid",
      fieldErrors: { from: ["From must be between 1900-01-01 and 2099-12-31"] },
    });
    expect(
      buildAuditSearch(new URLSearchParams("from=2024-01-02 00:00:00&to=2024-01-01 00:00:00")),
    ).toMatchObject({ kind: "invalid", fieldErrors: { to: ["The end must not be before the start"] } });
    expect(buildAuditSearch(new URLSearchParams("environmentId=staging"))).toMatchObject({
      kind: "invalid",
      fieldErrors: { environmentId: [expect.any(String)] },
    });
  });

  it("keeps the filters when paging and drops empty ones", () => {
    const values = { userId: "u1", action: "", environmentId: "", from: "", to: "" };
    expect(searchWith(values, { page: 3 })).toBe("?userId=u1&page=3");
  });
});
