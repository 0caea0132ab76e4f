import { parseWithZod } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";
import {
  accountIdTypingError,
  connectionFormSchema,
  initialFormValues,
  methodOrDefault,
  secretInputNames,
} from "./connection-form";

function submit(mode: "create" | "edit", entries: [string, string][]) {
  const formData = new FormData();
  for (const [name, value] of entries) formData.append(name, value);
  return parseWithZod(formData, { schema: connectionFormSchema(mode), disableAutoCoercion: true });
}

const awsKeys: [string, string][] = [
  ["kind", "AWS"],
  ["name", "Production account"],
  ["method", "keys"],
  ["fields.ACCOUNT_ID", "1234-5678-9012"],
  ["fields.ACCESS_KEY_ID", "AKIAIOSFODNN7EXAMPLE"],
  ["fields.SECRET_ACCESS_KEY", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"],
  ["fields.REGION", "eu-west-1"],
];

describe("the connection form", () => {
  it("sends the platform's request: dashes removed, refused unless saved without verifying", () => {
    const checked = submit("create", [...awsKeys, ["intent", "save"]]);
    if (checked.status !== "success") throw new Error(JSON.stringify(checked.error));
    expect(checked.value).toEqual({
      kind: "AWS",
      name: "Production account",
      method: "keys",
      fields: {
        ACCOUNT_ID: "123456789012",
        ACCESS_KEY_ID: "AKIAIOSFODNN7EXAMPLE",
        SECRET_ACCESS_KEY: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
        REGION: "eu-west-1",
      },
      verify: true,
      ifRefused: "refuse",
    });
    // 'Save without verifying' (offered after a refusal) still checks, so the refusal is recorded with the save.
    const anyway = submit("create", [...awsKeys, ["intent", "save-unverified"]]);
    expect(anyway.status === "success" && anyway.value).toMatchObject({ verify: true, ifRefused: "save" });
  });

  it("reports each empty or malformed field on its input with SPEC §5's messages", () => {
    const submission = submit("create", [
      ["kind", "AWS"],
      ["name", ""],
      ["method", "keys"],
      ["fields.ACCOUNT_ID", "12345"],
      ["fields.ACCESS_KEY_ID", ""],
      ["fields.SECRET_ACCESS_KEY", ""],
      ["fields.REGION", "us-east-1"],
    ]);
    if (submission.status === "success") throw new Error("expected the form to be refused");
    expect(submission.error).toMatchObject({
      name: ["Name is a required field"],
      "fields.ACCOUNT_ID": [
        "Value must be 12 digits, optionally with dashes every 4 digits (e.g. 1234-5678-9012).",
      ],
      "fields.ACCESS_KEY_ID": ["Access key id is a required field"],
      "fields.SECRET_ACCESS_KEY": ["Secret access key is a required field"],
    });
  });

  it("fills a default left empty, and on an edit keeps an empty secret out of the request", () => {
    const submission = submit("edit", [
      ["kind", "OBSERVABILITY_PROVIDER_TYPE_DATADOG"],
      ["name", "Datadog"],
      ["method", "api-key"],
      ["fields.DD_URL", ""],
      ["fields.DD_API_KEY", ""],
    ]);
    if (submission.status !== "success") throw new Error(JSON.stringify(submission.error));
    expect(submission.value.fields).toEqual({ DD_URL: "https://api.datadoghq.com" });
    expect(submit("create", [...awsKeys.slice(0, 5), ["fields.SECRET_ACCESS_KEY", ""]]).status).toBe("error");
  });

  it("names the secret inputs, whose values a result never carries back", () => {
    expect(secretInputNames("AWS", "keys")).toEqual(["fields.SECRET_ACCESS_KEY"]);
    expect(secretInputNames("AWS", "role")).toEqual([]);
    expect(secretInputNames("GCP", "service-account")).toEqual(["fields.GCP_SERVICE_ACCOUNT_KEY"]);
  });

  it("starts an edit from the stored plain fields, a create from the listed defaults", () => {
    expect(methodOrDefault("AWS", "keys")).toBe("keys");
    expect(methodOrDefault("AWS", "nonsense")).toBe("role");
    expect(initialFormValues("AWS", "role").fields).toEqual({ REGION: "us-east-1" });
    expect(initialFormValues("DOCKER", "token").fields).toEqual({});
    const stored = {
      name: "Hub",
      method: "token",
      fields: { BASE_URL: "https://registry.example.com", USERNAME: "ci" },
    };
    expect(initialFormValues("DOCKER", "token", stored)).toEqual({
      name: "Hub",
      kind: "DOCKER",
      method: "token",
      fields: { BASE_URL: "https://registry.example.com", USERNAME: "ci" },
    });
  });
});

describe("the account id while typing", () => {
  it("accepts 12 digits with or without dashes and says nothing for an empty field", () => {
    expect(accountIdTypingError("")).toBeNull();
    expect(accountIdTypingError("1234-5678-9012")).toBeNull();
    expect(accountIdTypingError("123456789012")).toBeNull();
    expect(accountIdTypingError("1234-5678")).toBe(
      "Value must be 12 digits, optionally with dashes every 4 digits (e.g. 1234-5678-9012).",
    );
  });
});
