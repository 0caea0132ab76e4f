import { describe, expect, it } from "vitest";
import { accountIdTypingError, connectAwsAccountSchema } from "./connect-form";
import { relativeDuration } from "./relative-duration";

describe("the account id while typing", () => {
  it.each([
    ["", null],
    ["   ", null],
    ["123456789012", null],
    ["12345", "Value must be a 12-digit number."],
    ["1234567890123", "Value must be a 12-digit number."],
    ["12345678901a", "Value must be a 12-digit number."],
  ])("%j → %j", (value, error) => {
    expect(accountIdTypingError(value)).toBe(error);
  });
});

describe("the connect form on submit", () => {
  it("requires both fields", () => {
    const result = connectAwsAccountSchema.safeParse({});
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => [issue.path.join("."), issue.message])).toEqual([
      ["awsAccountID", "Account ID is a required field"],
      ["awsAccountRegion", "Region is a required field"],
    ]);
  });

  it("accepts a 12-digit id and a catalogued region", () => {
    expect(
      connectAwsAccountSchema.parse({ awsAccountID: " 012345678901 ", awsAccountRegion: "eu-west-1" }),
    ).toEqual({
      awsAccountID: "012345678901",
      awsAccountRegion: "eu-west-1",
    });
    expect(
      connectAwsAccountSchema.safeParse({ awsAccountID: "1234", awsAccountRegion: "eu-west-1" }).error
        ?.issues[0]?.message,
    ).toBe("Value must be a 12-digit number.");
  });
});

describe("the download's relative duration", () => {
  const now = Date.UTC(2026, 2, 1, 10);
  it.each([
    [86_400, "24 hours"],
    [3600, "1 hour"],
    [45 * 60, "45 minutes"],
    [90, "2 minutes"],
    [30, "30 seconds"],
    [1, "1 second"],
    [3 * 86_400, "3 days"],
    [-10, "0 seconds"],
  ])("%i s from now reads %j", (seconds, text) => {
    expect(relativeDuration(now / 1000 + seconds, now)).toBe(text);
  });
});
