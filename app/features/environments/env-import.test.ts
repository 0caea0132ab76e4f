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
        { name: "REGION", value: "eu-west-1" },
        { name: "DEBUG", value: "true" },
        { name: "ENVIRONMENT", value: "staging" },
        { name: "API_KEY", value: "old-key" },
      ],
      current,
    );
    expect(preview).toEqual({
      added: [{ name: "ENVIRONMENT", value: "staging" }],
      changed: [{ id: "v1", name: "DEBUG", value: "true", secret: false }],
      unchanged: ["API_KEY", "REGION"],
    });
  });

  it("keeps a changed secret's id and secrecy", () => {
    const preview = previewEnvImport([{ name: "API_KEY", value: "new-key" }], current);
    expect(preview.changed).toEqual([{ id: "v2", name: "API_KEY", value: "new-key", secret: true }]);
  });

  it("leaves variables the file does not name alone", () => {
    const preview = previewEnvImport([{ name: "NEW_ONE", value: "1" }], current);
    expect(previewSummary(preview)).toEqual({ added: ["NEW_ONE"], changed: [], unchanged: [] });
  });

  it("tells an empty value from a missing variable and from a changed one", () => {
    const preview = previewEnvImport(
      [
        { name: "EMPTY", value: "" },
        { name: "REGION", value: "" },
      ],
      [...current, { id: "v4", name: "EMPTY", value: "", secret: false }],
    );
    expect(previewSummary(preview)).toEqual({ added: [], changed: ["REGION"], unchanged: ["EMPTY"] });
  });

  it("compares names case-sensitively, as the platform keeps them", () => {
    const preview = previewEnvImport([{ name: "debug", value: "false" }], current);
    expect(previewSummary(preview).added).toEqual(["debug"]);
  });

  it("lists every group by name", () => {
    const preview = previewEnvImport(
      [
        { name: "ZED", value: "1" },
        { name: "ALPHA", value: "1" },
        { name: "MID", value: "1" },
      ],
      [],
    );
    expect(previewSummary(preview).added).toEqual(["ALPHA", "MID", "ZED"]);
  });

  it("summarises names only, never values", () => {
    const summary = previewSummary(previewEnvImport([{ name: "API_KEY", value: "new-key" }], current));
    expect(JSON.stringify(summary)).not.toContain("new-key");
  });
});
