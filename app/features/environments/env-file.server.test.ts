import { describe, expect, it } from "vitest";
import { parseEnvFile } from "./env-file.server";
import { envFileTemplate, envFileTemplateVariables } from "./env-file-template";

describe("parseEnvFile", () => {
  it("reads dotenv syntax: comments, quotes, export prefixes, empty values", () => {
    const { entries, rejected } = parseEnvFile(
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
    expect(rejected).toEqual([]);
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
    expect(parseEnvFile("A=1\nA=2\n").entries).toEqual([{ name: "A", value: "2" }]);
  });

  it("skips names the platform refuses, saying why", () => {
    const { entries, rejected } = parseEnvFile("GOOD=1\nmy.dotted=2\nhas-hyphen=3\n9LIVES=4\n");
    expect(entries.map((entry) => entry.name)).toEqual(["GOOD"]);
    expect(rejected.map((entry) => entry.name)).toEqual(["my.dotted", "has-hyphen", "9LIVES"]);
    expect(rejected[0]?.reason).toBe(
      "Name must start with a letter or underscore and contain only letters, digits and underscores.",
    );
  });

  it("finds nothing in text without assignments", () => {
    expect(parseEnvFile("just some words\n# and a comment\n")).toEqual({ entries: [], rejected: [] });
  });

  it("reads the sample template back as its seven variables, each with a value", () => {
    const { entries, rejected } = parseEnvFile(envFileTemplate());
    expect(rejected).toEqual([]);
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
