import { parseWithZod } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";
import * as z from "zod";
import { defaultServiceSettings, serviceErrorMessages, type LogLine } from "#contract/services";
import { diffRows, diffValues, formatDiffValue } from "./config-diff";
import { configFields, configFormDefaults, configFormSchema } from "./config-form";
import { conflictOf, isStaleVersion } from "./conflict";
import { appendTail, buildLogSearch, tailCursor } from "./log-query";
import { mergeSettings, settingsFormSchema, settingsKeyOf } from "./settings-forms";
import { readDetailsView } from "./view";

function formData(entries: [string, string][]): FormData {
  const data = new FormData();
  for (const [name, value] of entries) data.append(name, value);
  return data;
}

describe("diffValues", () => {
  it("lists changed leaves of objects by path, and arrays as a whole", () => {
    expect(
      diffValues(
        { engine: "postgres", storageGb: 20, scaling: { min: 1, max: 3 }, tags: ["a"] },
        { engine: "postgres", storageGb: 40, scaling: { min: 1, max: 5 }, tags: ["a", "b"], extra: true },
      ),
    ).toEqual([
      { path: "storageGb", before: 20, after: 40 },
      { path: "scaling.max", before: 3, after: 5 },
      { path: "tags", before: ["a"], after: ["a", "b"] },
      { path: "extra", after: true },
    ]);
  });

  it("finds nothing between equal values", () => {
    expect(diffValues({ a: [1, { b: 2 }] }, { a: [1, { b: 2 }] })).toEqual([]);
  });

  it("renders rows as text: nothing as a dash, lists joined, objects as key=value", () => {
    expect(formatDiffValue(undefined)).toBe("—");
    expect(formatDiffValue("")).toBe("—");
    expect(formatDiffValue([])).toBe("none");
    expect(formatDiffValue(["a", "b"])).toBe("a, b");
    expect(formatDiffValue([{ name: "A", value: "1" }])).toBe("name=A, value=1");
    expect(diffRows([{ path: "multiAz", before: false, after: true }])).toEqual([
      { path: "multiAz", before: "false", after: "true" },
    ]);
  });
});

describe("buildLogSearch", () => {
  it("builds the SEARCH query from the form's fields, reading picker values as UTC", () => {
    const search = buildLogSearch(
      new URLSearchParams({
        text: " timeout ",
        level: "error",
        podNames: "web-1,web-2",
        from: "2025-01-31 08:30:00",
        to: "2025-01-31 09:00:00",
      }),
    );
    expect(search).toMatchObject({
      kind: "query",
      query: {
        logType: "SEARCH",
        text: "timeout",
        level: "error",
        podNames: "web-1,web-2",
        from: "2025-01-31T08:30:00Z",
        to: "2025-01-31T09:00:00Z",
        limit: 200,
      },
    });
  });

  it("takes the time range of a history link (timestamps) when the form's fields are missing", () => {
    const search = buildLogSearch(
      new URLSearchParams({ timestamps: "2025-01-31T08:30:00.000Z,2025-01-31T08:31:00.000Z", podNames: "a" }),
    );
    expect(search.kind).toBe("query");
    expect(search.values).toEqual({
      text: "",
      level: "",
      podNames: ["a"],
      from: "2025-01-31T08:30:00.000Z",
      to: "2025-01-31T08:31:00.000Z",
    });
  });

  it("reports a range that ends before it starts, or dates outside 1900–2099, on the fields", () => {
    const reversed = buildLogSearch(
      new URLSearchParams({ from: "2025-02-01 00:00:00", to: "2025-01-01 00:00:00" }),
    );
    expect(reversed).toMatchObject({
      kind: "invalid",
      fieldErrors: { to: ["The end must not be before the start"] },
    });
    const outside = buildLogSearch(new URLSearchParams({ from: "1850-01-01 00:00:00" }));
    expect(outside).toMatchObject({
      kind: "invalid",
      fieldErrors: { from: ["Start must be between 1900-01-01 and 2099-12-31"] },
    });
    const garbage = buildLogSearch(new URLSearchParams({ to: "yesterday" }));
    expect(garbage).toMatchObject({
      kind: "invalid",
      fieldErrors: { to: ["End must be a date and time (ISO 8601)"] },
    });
  });
});

describe("the live tail", () => {
  const line = (id: number): LogLine => ({
    id: String(id),
    at: new Date(Date.UTC(2025, 0, 1, 0, 0, id)).toISOString(),
    podName: "web-1",
    level: "info",
    message: `line ${id}`,
  });

  it("appends new lines once and keeps only the newest up to the limit", () => {
    const held = [line(1), line(2), line(3)];
    const next = appendTail(held, [line(3), line(4), line(5)], 4);
    expect(next.map((entry) => entry.id)).toEqual(["2", "3", "4", "5"]);
    expect(tailCursor(next)).toBe("5");
    expect(tailCursor([])).toBeUndefined();
  });
});

describe("the configuration form", () => {
  it("picks an input per key from the type's schema", () => {
    const fields = configFields("database");
    expect(fields.find((field) => field.name === "engine")).toMatchObject({
      kind: "select",
      options: [
        { value: "postgres", label: "PostgreSQL" },
        { value: "mysql", label: "MySQL" },
        { value: "mariadb", label: "MariaDB" },
      ],
    });
    expect(fields.find((field) => field.name === "multiAz")).toMatchObject({
      kind: "switch",
      label: "Multi-AZ",
    });
    expect(fields.find((field) => field.name === "storageGb")).toMatchObject({ kind: "number", min: 20 });
    expect(configFields("tls").find((field) => field.name === "subjectAlternativeNames")?.kind).toBe("list");
    expect(configFields("serverless").find((field) => field.name === "uploadId")?.kind).toBe("hidden");
  });

  it("names fields and choices in the create form's words", () => {
    expect(configFields("kubernetes").find((field) => field.name === "version")?.label).toBe(
      "Kubernetes version",
    );
    expect(configFields("queue").find((field) => field.name === "queueType")).toMatchObject({
      label: "Queue type",
      options: [
        { value: "standard", label: "Standard" },
        { value: "fifo", label: "FIFO" },
      ],
    });
  });

  it("reads switches, numbers and comma lists, and keeps the contract's cross-field rules", () => {
    const schema = z.object({ config: configFormSchema("tls") });
    const tls = parseWithZod(
      formData([
        ["config.domain", "example.com"],
        ["config.subjectAlternativeNames", "a.example.com, b.example.com"],
        ["config.validationMethod", "dns"],
      ]),
      { schema },
    );
    expect(tls.status).toBe("success");
    expect(tls.status === "success" && tls.value.config).toEqual({
      domain: "example.com",
      subjectAlternativeNames: ["a.example.com", "b.example.com"],
      validationMethod: "dns",
    });

    const database = parseWithZod(
      formData([
        ["config.engine", "mysql"],
        ["config.version", "17"],
        ["config.instanceSize", "db.t4g.micro"],
        ["config.storageGb", "40"],
        ["config.username", "admin"],
        ["config.backupRetentionDays", "7"],
      ]),
      { schema: z.object({ config: configFormSchema("database") }) },
    );
    expect(database.status).toBe("error");
    expect(database.reply().error).toEqual({ "config.version": ["Version is not offered for this engine"] });
  });

  it("shows lists as comma-separated text", () => {
    expect(
      configFormDefaults("tls", {
        domain: "x.io",
        subjectAlternativeNames: ["a.x.io", "b.x.io"],
        validationMethod: "dns",
      }),
    ).toEqual({ domain: "x.io", subjectAlternativeNames: "a.x.io, b.x.io", validationMethod: "dns" });
  });
});

describe("the settings forms", () => {
  it("parses one part with its version, and an unchecked switch as off", () => {
    const data = formData([
      ["intent", "save-settings"],
      ["section", "networking"],
      ["version", "4"],
      ["networking.port", "8080"],
      ["networking.customDomain", ""],
    ]);
    expect(settingsKeyOf(data)).toBe("networking");
    const submission = parseWithZod(data, { schema: settingsFormSchema("networking") });
    expect(submission.status === "success" && submission.value).toEqual({
      intent: "save-settings",
      section: "networking",
      version: 4,
      networking: { port: 8080, public: false, customDomain: "" },
    });
  });

  it("reads lists, including none at all and a rule with no day", () => {
    const none = parseWithZod(
      formData([
        ["intent", "save-settings"],
        ["section", "envvars"],
        ["version", "1"],
      ]),
      { schema: settingsFormSchema("envvars") },
    );
    expect(none.status === "success" && none.value.envvars).toEqual([]);

    const schedule = parseWithZod(
      formData([
        ["intent", "save-settings"],
        ["section", "schedule"],
        ["version", "1"],
        ["schedule[0].start", "08:00"],
        ["schedule[0].end", "18:00"],
        ["schedule[0].minInstances", "2"],
      ]),
      { schema: settingsFormSchema("schedule") },
    );
    expect(schedule.reply().error).toEqual({ "schedule[0].days": ["Choose at least one day"] });
  });

  it("replaces only the edited part of the whole settings", () => {
    const merged = mergeSettings(defaultServiceSettings, "scaling", {
      minInstances: 2,
      maxInstances: 6,
      targetCpuPercent: 60,
    });
    expect(merged).toEqual({
      ...defaultServiceSettings,
      scaling: { minInstances: 2, maxInstances: 6, targetCpuPercent: 60 },
    });
    expect(settingsKeyOf(formData([["section", "nonsense"]]))).toBeNull();
  });
});

describe("stale-version conflicts", () => {
  it("recognises only the stale-version 409", () => {
    expect(isStaleVersion({ status: 409, message: serviceErrorMessages.staleVersion })).toBe(true);
    expect(isStaleVersion({ status: 409, message: serviceErrorMessages.deploymentRunning })).toBe(false);
    expect(isStaleVersion({ status: 400, message: serviceErrorMessages.staleVersion })).toBe(false);
  });

  it("lists the fields where the user's values differ from the saved ones, with the version to save on", () => {
    expect(
      conflictOf(
        { minInstances: 2, maxInstances: 6, targetCpuPercent: 70 },
        { minInstances: 1, maxInstances: 9, targetCpuPercent: 70 },
        7,
      ),
    ).toEqual({
      version: 7,
      changes: [
        { path: "minInstances", yours: "2", theirs: "1" },
        { path: "maxInstances", yours: "6", theirs: "9" },
      ],
    });
  });
});

describe("readDetailsView", () => {
  it("reads the tab, sub-tab, log type, pods and range, with defaults for unknown values", () => {
    expect(
      readDetailsView(
        new URLSearchParams({
          tab: "logs",
          logType: "SEARCH",
          podNames: "a,b",
          timestamps: "t1,t2",
          range: "24h",
        }),
      ),
    ).toEqual({
      tab: "logs",
      subTab: "envvars",
      logType: "SEARCH",
      podNames: ["a", "b"],
      timestamps: ["t1", "t2"],
      range: "24h",
    });
    expect(
      readDetailsView(new URLSearchParams({ tab: "nope", subTab: "schedule", range: "2y" })),
    ).toMatchObject({
      tab: "overview",
      subTab: "schedule",
      logType: "LIVE",
      range: "1h",
    });
  });
});
