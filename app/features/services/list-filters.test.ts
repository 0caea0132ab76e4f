import { describe, expect, it } from "vitest";
import { NUL_CHARACTER_MESSAGE } from "#contract/validation";
import { hasFilters, pageCount, parseServiceListFilters } from "./list-filters";

const parse = (query: string) => parseServiceListFilters(new URLSearchParams(query));

describe("the services list filters", () => {
  it("reads type, stage, text and page", () => {
    expect(parse("serviceType=database&stage=STAGE_FAILED&text=%20orders%20&page=3")).toEqual({
      serviceType: "database",
      stage: "STAGE_FAILED",
      text: "orders",
      page: 3,
    });
  });

  it("leaves out what it does not understand and starts at page 1", () => {
    expect(parse("serviceType=mainframe&stage=DONE&text=%20&page=-2")).toEqual({ page: 1 });
    expect(parse("page=1.5")).toEqual({ page: 1 });
    expect(parse("")).toEqual({ page: 1 });
  });

  it("reports a NUL character in the search text as the field's error and searches without it", () => {
    expect(parse("text=a%00b&stage=STAGE_FAILED")).toEqual({
      stage: "STAGE_FAILED",
      page: 1,
      errors: { text: [NUL_CHARACTER_MESSAGE] },
    });
  });

  it("cuts the search text to 100 characters", () => {
    expect(parse(`text=${"a".repeat(150)}`).text).toHaveLength(100);
  });

  it("knows when any filter is set", () => {
    expect(hasFilters(parse("page=2"))).toBe(false);
    expect(hasFilters(parse("text=x"))).toBe(true);
    expect(hasFilters(parse("serviceType=application"))).toBe(true);
  });

  it("counts pages, at least one", () => {
    expect(pageCount(0, 50)).toBe(1);
    expect(pageCount(50, 50)).toBe(1);
    expect(pageCount(51, 50)).toBe(2);
  });
});
