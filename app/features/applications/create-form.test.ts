import { parseWithZod } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";
import { defaultApplicationConfig } from "#contract/application-config";
import { createApplicationFormSchema } from "#contract/applications";
import { formConstraint } from "~/components/form-constraint";
import { applicationFormFieldsSchema, applicationFormSchemaOf } from "./create-form";

/** The form data a filled-in create form posts, with `overrides` replacing or (undefined) removing fields. */
function formData(overrides: Record<string, string | undefined> = {}) {
  const fields: Record<string, string | undefined> = {
    name: "web",
    intent: "deploy",
    "config.source.kind": "image",
    "config.source.image": "nginx:1.27",
    "config.ports[0].port": "8080",
    "config.ports[0].protocol": "HTTP",
    "config.ports[0].public": "on",
    "config.cpu": "0.5",
    "config.memoryMb": "1024",
    "config.scaling.mode": "fixed",
    "config.scaling.replicas": "2",
    "config.healthCheck.path": "/healthz",
    "config.healthCheck.port": "8080",
    "config.healthCheck.intervalSeconds": "10",
    "config.healthCheck.timeoutSeconds": "5",
    "config.healthCheck.healthyThreshold": "2",
    "config.healthCheck.unhealthyThreshold": "3",
    "config.domain.host": "",
    "config.domain.certificateId": "",
    "config.preDeployCommand": "",
    ...overrides,
  };
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) if (value !== undefined) data.append(name, value);
  return data;
}

const parse = (data: FormData) =>
  parseWithZod(data, {
    schema: applicationFormSchemaOf(applicationFormFieldsSchema),
    disableAutoCoercion: true,
  });

describe("the application create form's fields", () => {
  it("marks the fields a user must fill in, and only those, as required", () => {
    const constraint = formConstraint(applicationFormFieldsSchema);
    const required = (name: string) => constraint[name]?.required;
    expect(required("name")).toBe(true);
    expect(required("config.source.image")).toBe(true);
    expect(required("config.healthCheck.path")).toBe(true);
    expect(required("config.domain.host")).toBe(false);
    expect(required("config.domain.certificateId")).toBe(false);
    expect(required("config.preDeployCommand")).toBe(false);
  });

  it("starts with a port and health check the suggested image (nginx:1.27) answers", () => {
    expect(defaultApplicationConfig.ports).toEqual([{ port: 80, protocol: "HTTP", public: true }]);
    expect(defaultApplicationConfig.healthCheck).toMatchObject({ path: "/", port: 80 });
  });

  it("reads a filled-in form: empty optional texts stay empty, no lists are empty lists", () => {
    const submission = parse(formData());
    expect(submission.status).toBe("success");
    if (submission.status !== "success") return;
    expect(submission.value.config.preDeployCommand).toBe("");
    expect(submission.value.config.domain).toEqual({ host: "", certificateId: "" });
    expect(submission.value.config.ports).toEqual([{ port: 8080, protocol: "HTTP", public: true }]);
    expect(submission.value.config.envvars).toEqual([]);
    expect(submission.value.config.sidecars).toEqual([]);
  });

  it("reads an unchecked switch as false", () => {
    const submission = parse(formData({ "config.ports[0].public": undefined }));
    expect(submission.status).toBe("success");
    if (submission.status === "success") expect(submission.value.config.ports[0]?.public).toBe(false);
  });

  it("gives the contract's messages on their fields", () => {
    const submission = parse(
      formData({ "config.source.image": "Not An Image", "config.scaling.replicas": "", name: "Web" }),
    );
    const errors = submission.reply().error ?? {};
    expect(errors["config.source.image"]).toEqual([
      "Image must be an image reference such as nginx:1.27 or ghcr.io/org/app:tag",
    ]);
    expect(errors["config.scaling.replicas"]).toEqual(["Replicas is a required field"]);
    expect(errors.name).toBeDefined();
  });

  it("leaves the Helm values' YAML to the contract's full schema, which the action uses", () => {
    const helm = {
      "config.source.kind": "helm",
      "config.source.image": undefined,
      "config.source.chartRepositoryId": "0b9c1f0e-3a53-4f4e-9a4e-4a7d1c2e9b10",
      "config.source.chart": "nginx",
      "config.source.version": "1.2.3",
      "config.source.values": "a: [1\n",
    };
    expect(parse(formData(helm)).status).toBe("success");
    const full = parseWithZod(formData(helm), {
      schema: applicationFormSchemaOf(createApplicationFormSchema),
      disableAutoCoercion: true,
    });
    expect(Object.keys(full.reply().error ?? {})).toEqual(["config.source.values"]);
  });
});
