import { parseWithZod } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";
import { addonsFormSchema, addonsWithEnabled } from "./addons";
import { configFormSchema } from "./config-form";
import { deleteEnvironmentSchema } from "./delete-environment";
import { environmentFormSchema } from "./environment-form";
import { intentOf, updateVariableSchema, variableChangeOf, variableFormSchemas } from "./variable-forms";

const formData = (entries: [string, string][]) => {
  const data = new FormData();
  for (const [name, value] of entries) data.append(name, value);
  return data;
};

describe("the environment form", () => {
  it("accepts a name, a provider and a region of that provider", () => {
    const submission = parseWithZod(
      formData([
        ["name", "staging"],
        ["cloudProvider", "GCP"],
        ["region", "europe-west1"],
      ]),
      { schema: environmentFormSchema },
    );
    expect(submission.status).toBe("success");
  });

  it("explains the SPEC §5 name rule and a region of another provider", () => {
    const submission = parseWithZod(
      formData([
        ["name", "Not Valid!"],
        ["cloudProvider", "GCP"],
        ["region", "us-east-1"],
      ]),
      { schema: environmentFormSchema },
    );
    expect(submission.status).toBe("error");
    const errors = submission.status === "error" ? submission.error : {};
    expect(errors?.name?.[0]).toMatch(/lowercase letters, digits and hyphens/);
    expect(errors?.region).toEqual(["Choose a region of Google Cloud"]);
  });

  it("runs in a chosen cloud account, or none when the choice is left empty", () => {
    const accountId = "0b9f3a4e-5d6c-4b7a-8e9f-0a1b2c3d4e5f";
    const chosen = parseWithZod(
      formData([
        ["name", "staging"],
        ["cloudProvider", "AWS"],
        ["region", "us-east-1"],
        ["cloudConnectionId", accountId],
      ]),
      { schema: environmentFormSchema },
    );
    expect(chosen.status === "success" && chosen.value.cloudConnectionId).toBe(accountId);
    const none = parseWithZod(
      formData([
        ["name", "staging"],
        ["cloudProvider", "AWS"],
        ["region", "us-east-1"],
        ["cloudConnectionId", ""],
      ]),
      { schema: environmentFormSchema },
    );
    expect(none.status === "success" && none.value.cloudConnectionId).toBeUndefined();
  });

  it("calls a missing name and provider required", () => {
    const submission = parseWithZod(formData([["region", "us-east-1"]]), { schema: environmentFormSchema });
    const errors = submission.status === "error" ? submission.error : {};
    expect(errors?.name).toEqual(["Name is a required field"]);
    expect(errors?.cloudProvider).toEqual(["Cloud provider is a required field"]);
  });
});

describe("the configuration form", () => {
  it("reads unchecked switches as off and an emptied description as empty", () => {
    const submission = parseWithZod(
      formData([
        ["maintenanceWindow.day", "sunday"],
        ["maintenanceWindow.hour", "3"],
      ]),
      { schema: configFormSchema },
    );
    expect(submission.status === "success" && submission.value).toEqual({
      description: "",
      autoDeploy: false,
      deletionProtection: false,
      maintenanceWindow: { day: "sunday", hour: 3 },
    });
  });

  it("reads checked switches as on", () => {
    const submission = parseWithZod(
      formData([
        ["autoDeploy", "on"],
        ["deletionProtection", "on"],
        ["maintenanceWindow.day", "monday"],
        ["maintenanceWindow.hour", "0"],
      ]),
      { schema: configFormSchema },
    );
    expect(submission.status === "success" && submission.value).toMatchObject({
      autoDeploy: true,
      deletionProtection: true,
    });
  });

  it("explains a missing day and an hour out of range", () => {
    const submission = parseWithZod(formData([["maintenanceWindow.hour", "24"]]), {
      schema: configFormSchema,
    });
    const errors = submission.status === "error" ? submission.error : {};
    expect(errors?.["maintenanceWindow.day"]).toEqual(["Maintenance day is a required field"]);
    expect(errors?.["maintenanceWindow.hour"]).toEqual(["must be between 0 and 23"]);
  });
});

describe("the add-ons form", () => {
  it("switches on exactly the submitted add-ons", () => {
    const submission = parseWithZod(
      formData([
        ["enabled", "backups"],
        ["enabled", "observability"],
      ]),
      { schema: addonsFormSchema },
    );
    expect(submission.status === "success" && submission.value.enabled).toEqual(["backups", "observability"]);
    expect(
      addonsWithEnabled(
        [
          { name: "observability", enabled: false },
          { name: "backups", enabled: false },
          { name: "cost-alerts", enabled: true },
        ],
        ["backups", "observability"],
      ),
    ).toEqual([
      { name: "observability", enabled: true },
      { name: "backups", enabled: true },
      { name: "cost-alerts", enabled: false },
    ]);
  });

  it("reads no switch on as none", () => {
    const submission = parseWithZod(formData([]), { schema: addonsFormSchema });
    expect(submission.status === "success" && submission.value.enabled).toEqual([]);
  });
});

describe("deleting an environment", () => {
  it("needs the environment's name typed exactly", () => {
    const schema = deleteEnvironmentSchema("staging");
    expect(schema.safeParse({ confirmation: "staging" }).success).toBe(true);
    expect(schema.safeParse({ confirmation: "Staging" }).error?.issues[0]?.message).toBe(
      "Type staging to confirm",
    );
  });
});

describe("the variable forms", () => {
  it("tells the forms apart by their intent", () => {
    expect(intentOf(formData([["intent", "apply-import"]]))).toBe("apply-import");
    expect(intentOf(formData([["intent", "drop-table"]]))).toBeNull();
  });

  it("keeps a secret's stored value when its field is left empty", () => {
    const edit = updateVariableSchema.parse({
      intent: "update",
      id: "v1",
      name: "API_KEY",
      secret: true,
      valueHidden: true,
    });
    expect(variableChangeOf(edit)).toEqual({ id: "v1", name: "API_KEY", secret: true });
  });

  it("sets a plain variable emptied by the user to the empty string", () => {
    const edit = updateVariableSchema.parse({ intent: "update", id: "v1", name: "DEBUG", secret: false });
    expect(variableChangeOf(edit)).toEqual({ id: "v1", name: "DEBUG", secret: false, value: "" });
  });

  it("adds a variable with an empty value as a plain one by default", () => {
    const submission = parseWithZod(
      formData([
        ["intent", "create"],
        ["name", "EMPTY"],
      ]),
      { schema: variableFormSchemas.create },
    );
    expect(submission.status === "success" && submission.value).toEqual({
      intent: "create",
      name: "EMPTY",
      value: "",
      secret: false,
    });
  });

  it("requires the .env file's contents", () => {
    const submission = parseWithZod(formData([["intent", "preview-import"]]), {
      schema: variableFormSchemas["preview-import"],
    });
    expect(submission.status === "error" && submission.error?.content).toEqual([
      "The .env file is a required field",
    ]);
  });
});
