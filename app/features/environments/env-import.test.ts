import { describe, expect, it } from "vitest";
import { previewEnvImport, previewSummary, type CurrentVariable } from "./env-import";

const current: CurrentVariable[] = [
  { id: "v1", name: "DEBUG", value: "false", secret: false },
  { id: "v2", name: "API_KEY", value: "old-key", secret: true },
  { id: "v3", name: "REGION", value: "eu-west-1", secret: false },
];

describe("previewEnvImport", () => {
  it("sorts the file's names into new, changed and unchanged by comparing values", () => {
    const preview = previewEnvImport(
      [
        { name: "REGION", value: "eu-west-1", line: 1 },
        { name: "DEBUG", value: "true", line: 1 },
        { name: "ENVIRONMENT", value: "staging", line: 1 },
        { name: "API_KEY", value: "old-key", line: 1 },
      ],
      current,
    );
    expect(preview).toEqual({
      added: [{ name: "ENVIRONMENT", value: "staging", line: 1 }],
      changed: [{ id: "v1", name: "DEBUG", value: "true", line: 1, secret: false }],
      unchanged: ["API_KEY", "REGION"],
    });
  });

  it("keeps a changed secret's id and secrecy", () => {
    const preview = previewEnvImport([{ name: "API_KEY", value: "new-key", line: 1 }], current);
    expect(preview.changed).toEqual([{ id: "v2", name: "API_KEY", value: "new-key", line: 1, secret: true }]);
  });

  it("leaves variables the file does not name alone", () => {
    const preview = previewEnvImport([{ name: "NEW_ONE", value: "1", line: 1 }], current);
    expect(previewSummary(preview)).toEqual({ added: ["NEW_ONE"], changed: [], unchanged: [] });
  });

  it("tells an empty value from a missing variable and from a changed one", () => {
    const preview = previewEnvImport(
      [
        { name: "EMPTY", value: "", line: 1 },
        { name: "REGION", value: "", line: 1 },
      ],
      [...current, { id: "v4", name: "EMPTY", value: "", secret: false }],
    );
    expect(previewSummary(preview)).toEqual({ added: [], changed: ["REGION"], unchanged: ["EMPTY"] });
  });

  it("compares names case-sensitively, as the platform keeps them", () => {
    const preview = previewEnvImport([{ name: "debug", value: "false", line: 1 }], current);
    expect(previewSummary(preview).added).toEqual(["debug"]);
  });

  it("lists every group by name", () => {
    const preview = previewEnvImport(
      [
        { name: "ZED", value: "1", line: 1 },
        { name: "ALPHA", value: "1", line: 1 },
        { name: "MID", value: "1", line: 1 },
      ],
      [],
    );
    expect(previewSummary(preview).added).toEqual(["ALPHA", "MID", "ZED"]);
  });

  it("summarises names only, never values", () => {
    const summary = previewSummary(
      previewEnvImport([{ name: "API_KEY", value: "new-key", line: 1 }], current),
    );
    expect(JSON.stringify(summary)).not.toContain("new-key");
  });
});
