import { describe, expect, it } from "vitest";
import { safeReturnTo } from "./return-to";

describe("safeReturnTo", () => {
  it.each([
    ["/environments", "/environments"],
    ["/environments/create?mode=clone#top", "/environments/create?mode=clone#top"],
  ])("keeps the same-origin path %s", (value, expected) => {
    expect(safeReturnTo(value)).toBe(expected);
  });

  it.each([
    "https://evil.example/steal",
    "//evil.example/steal",
    "/\\evil.example",
    "/.//127.0.0.1:5103/x",
    "/..//evil.example/x",
    "/a/..//evil.example",
    "/%2e//evil.example",
    "javascript:alert(1)",
    "environments",
    "/auth/login",
    "",
    null,
  ])("drops %s", (value) => {
    expect(safeReturnTo(value)).toBe("/");
  });
});
