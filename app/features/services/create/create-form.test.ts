import { parseWithZod } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";
import { creatableServiceTypes } from "#contract/service-catalogue";
import { defaultServiceConfigs } from "#contract/service-configs";
import {
  createRequestOf,
  createServiceFormSchema,
  estimateConfigSchema,
  parseCreatableServiceType,
} from "./create-form";
import { alternativeNameIndexOf, expandListFields } from "./list-fields";

function formDataOf(entries: Record<string, string | string[]>) {
  const formData = new FormData();
  for (const [name, value] of Object.entries(entries)) {
    for (const item of Array.isArray(value) ? value : [value]) formData.append(name, item);
  }
  return formData;
}

const databaseForm = {
  name: "orders-db",
  intent: "create",
  "config.engine": "postgres",
  "config.version": "17",
  "config.instanceSize": "db.t4g.micro",
  "config.storageGb": "20",
  "config.username": "admin",
  "config.backupRetentionDays": "7",
};

describe("the create form", () => {
  it("knows the ten creatable types and nothing else", () => {
    expect(creatableServiceTypes.map(parseCreatableServiceType)).toEqual([...creatableServiceTypes]);
    expect(parseCreatableServiceType("application")).toBeNull();
    expect(parseCreatableServiceType("mainframe")).toBeNull();
    expect(parseCreatableServiceType(undefined)).toBeNull();
  });

  it("reads an unchecked switch as false and numbers as numbers", () => {
    const submission = parseWithZod(formDataOf(databaseForm), {
      schema: createServiceFormSchema("database"),
    });
    expect(submission.status).toBe("success");
    expect(submission.status === "success" && submission.value.config).toEqual({
      ...defaultServiceConfigs.database,
      multiAz: false,
    });
    const checked = parseWithZod(formDataOf({ ...databaseForm, "config.multiAz": "on" }), {
      schema: createServiceFormSchema("database"),
    });
    expect(checked.status === "success" && checked.value.config.multiAz).toBe(true);
  });

  it("keeps the contract's rules and messages, refinements included, under config. names", () => {
    const submission = parseWithZod(
      formDataOf({ ...databaseForm, name: "Orders", "config.version": "8.4", "config.storageGb": "5" }),
      { schema: createServiceFormSchema("database") },
    );
    const errors = submission.reply().error ?? {};
    expect(errors["config.storageGb"]).toEqual(["Storage (GB) must be between 20 and 16384"]);
    expect(errors.name?.[0]).toMatch(/lowercase/i);
    // The engine/version refinement runs once the fields themselves pass.
    const versionOnly = parseWithZod(formDataOf({ ...databaseForm, "config.version": "8.4" }), {
      schema: createServiceFormSchema("database"),
    });
    expect(versionOnly.reply().error).toEqual({
      "config.version": ["Version is not offered for this engine"],
    });
  });

  it("allows an empty optional text and maps the alternative names list", () => {
    const nosql = parseWithZod(
      formDataOf({
        name: "events",
        intent: "save",
        "config.tableName": "events",
        "config.partitionKey": "id",
        "config.billingMode": "on-demand",
        "config.readCapacityUnits": "5",
        "config.writeCapacityUnits": "5",
      }),
      { schema: createServiceFormSchema("nosql-database") },
    );
    expect(nosql.status === "success" && nosql.value.config.sortKey).toBe("");

    const tls = parseWithZod(
      formDataOf({
        name: "site-cert",
        intent: "create",
        "config.domain": "example.com",
        "config.validationMethod": "dns",
        "config.subjectAlternativeNames[0]": "www.example.com",
        "config.subjectAlternativeNames[1]": "Bad Name",
      }),
      { schema: createServiceFormSchema("tls") },
    );
    expect(Object.keys(tls.reply().error ?? {})).toEqual(["config.subjectAlternativeNames[1]"]);
  });

  it("asks the serverless upload for its id", () => {
    const submission = parseWithZod(
      formDataOf({
        name: "thumbnailer",
        intent: "create",
        "config.runtime": "nodejs22.x",
        "config.handler": "index.handler",
        "config.memoryMb": "256",
        "config.timeoutSeconds": "30",
      }),
      { schema: createServiceFormSchema("serverless") },
    );
    expect(submission.reply().error).toEqual({ "config.uploadId": ["Upload a function archive (.zip)"] });
    // An estimate does not wait for the archive.
    expect(estimateConfigSchema("serverless").safeParse(defaultServiceConfigs.serverless).success).toBe(true);
  });

  it("turns Save into a draft and Create into a launch", () => {
    const config = { engine: "redis" };
    expect(createRequestOf("cache", { name: "sessions", config, intent: "save" })).toEqual({
      serviceType: "cache",
      name: "sessions",
      config,
      launch: false,
    });
    expect(createRequestOf("cache", { name: "sessions", config, intent: "create" }).launch).toBe(true);
  });

  it("accepts every type's defaults except where the user must fill something in", () => {
    const needsInput = new Set(["file-storage", "nosql-database", "tls"]);
    for (const serviceType of creatableServiceTypes) {
      expect(estimateConfigSchema(serviceType).safeParse(defaultServiceConfigs[serviceType]).success).toBe(
        !needsInput.has(serviceType),
      );
    }
  });

  it("reads the alternative names textarea as a list, errors keyed by position", () => {
    const formData = expandListFields(
      formDataOf({
        name: "site-cert",
        intent: "create",
        "config.domain": "example.com",
        "config.validationMethod": "dns",
        subjectAlternativeNamesText: "www.example.com,\n shop.example.com  Bad_Name",
      }),
    );
    expect(formData.getAll("config.subjectAlternativeNames[2]")).toEqual(["Bad_Name"]);
    const submission = parseWithZod(formData, { schema: createServiceFormSchema("tls") });
    expect(Object.keys(submission.reply().error ?? {})).toEqual(["config.subjectAlternativeNames[2]"]);
    expect(alternativeNameIndexOf("config.subjectAlternativeNames[2]")).toBe(2);
    expect(alternativeNameIndexOf("config.subjectAlternativeNames")).toBeNull();

    const valid = parseWithZod(
      expandListFields(formDataOf({ ...Object.fromEntries(formData), subjectAlternativeNamesText: "" })),
      {
        schema: createServiceFormSchema("tls"),
      },
    );
    expect(valid.status === "success" && valid.value.config.subjectAlternativeNames).toEqual([]);
    // Forms without the textarea pass unchanged.
    const plain = formDataOf({ name: "x" });
    expect(expandListFields(plain)).toBe(plain);
  });
});
