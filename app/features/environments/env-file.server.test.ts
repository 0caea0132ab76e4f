import { describe, expect, it } from "vitest";
import { NOT_AN_ASSIGNMENT, parseEnvFile } from "./env-file.server";
import { envFileTemplate, envFileTemplateVariables } from "./env-file-template";

describe("parseEnvFile", () => {
  it("reads dotenv syntax: comments, quotes, export prefixes, empty values", () => {
    const { entries, skipped } = parseEnvFile(
      [
        "# a comment",
        "PLAIN=value",
        'QUOTED="two words"',
        "SINGLE='single # not a comment'",
        "export EXPORTED=yes",
        "EMPTY=",
        "TRAILING=value # comment",
        'MULTILINE="first\\nsecond"',
        "",
      ].join("\n"),
    );
    expect(skipped).toEqual([]);
    expect(Object.fromEntries(entries.map((entry) => [entry.name, entry.value]))).toEqual({
      PLAIN: "value",
      QUOTED: "two words",
      SINGLE: "single # not a comment",
      EXPORTED: "yes",
      EMPTY: "",
      TRAILING: "value",
      MULTILINE: "first\nsecond",
    });
  });

  it("keeps the last of repeated names", () => {
    expect(parseEnvFile("A=1\nA=2\n").entries).toEqual([{ name: "A", value: "2", line: 2 }]);
  });

  it("skips names the platform refuses, saying why, by line", () => {
    const { entries, skipped } = parseEnvFile("GOOD=1\nmy.dotted=2\nhas-hyphen=3\n9LIVES=4\n");
    expect(entries).toEqual([{ name: "GOOD", value: "1", line: 1 }]);
    expect(skipped.map(({ line, name }) => [line, name])).toEqual([
      [2, "my.dotted"],
      [3, "has-hyphen"],
      [4, "9LIVES"],
    ]);
    expect(skipped[0]?.reason).toBe(
      "Name must start with a letter or underscore and contain only letters, digits and underscores.",
    );
  });

  it("lists each line that is no assignment with its number instead of dropping it", () => {
    const { entries, skipped } = parseEnvFile(
      [
        "# settings",
        "GOOD=1",
        "just some words",
        "",
        "  MISSING_EQUALS value",
        'QUOTED="spans',
        'two lines"',
        "=no-name",
        "LAST=2",
      ].join("\r\n"),
    );
    expect(entries).toEqual([
      { name: "GOOD", value: "1", line: 2 },
      { name: "QUOTED", value: "spans\ntwo lines", line: 6 },
      { name: "LAST", value: "2", line: 9 },
    ]);
    expect(skipped).toEqual([
      { line: 3, name: null, reason: NOT_AN_ASSIGNMENT },
      { line: 5, name: null, reason: NOT_AN_ASSIGNMENT },
      { line: 8, name: null, reason: NOT_AN_ASSIGNMENT },
    ]);
  });

  it("finds no variables in text without assignments, and says which lines it skipped", () => {
    expect(parseEnvFile("just some words\n# and a comment\n")).toEqual({
      entries: [],
      skipped: [{ line: 1, name: null, reason: NOT_AN_ASSIGNMENT }],
    });
  });

  it("reads the sample template back as its seven variables, each with a value", () => {
    const { entries, skipped } = parseEnvFile(envFileTemplate());
    expect(skipped).toEqual([]);
    expect(entries.map((entry) => entry.name)).toEqual([
      "ENVIRONMENT",
      "ENABLE_TLS",
      "TLS_CERT_FILE",
      "TLS_KEY_FILE",
      "DEBUG",
      "API_KEY",
      "DB_PASSWORD",
    ]);
    expect(entries.map((entry) => entry.value)).toEqual(
      envFileTemplateVariables.map((variable) => variable.placeholder),
    );
    expect(entries.every((entry) => entry.value.length > 0)).toBe(true);
  });
});
