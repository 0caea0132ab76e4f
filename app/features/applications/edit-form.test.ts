import { parseWithZod } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";
import { defaultApplicationConfig } from "#contract/application-config";
import { editApplicationActionSchema } from "./details.server";
import { editableApplicationConfig, editApplicationFormSchema } from "./edit-form";

/** The form data the configuration tab of an application posts, `overrides` replacing or removing fields. */
function formData(overrides: Record<string, string | undefined> = {}) {
  const fields: Record<string, string | undefined> = {
    intent: "save-config",
    version: "3",
    "config.source.kind": "registry",
    "config.source.connectionId": "0b9c1f0e-3a53-4f4e-9a4e-4a7d1c2e9b10",
    "config.source.repository": "acme/web",
    "config.source.tag": "1.4.2",
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
  parseWithZod(data, { schema: editApplicationFormSchema, disableAutoCoercion: true });

describe("the application edit form", () => {
  it("reads the version it edits, the intent and the whole configuration", () => {
    const submission = parse(formData());
    expect(submission.status).toBe("success");
    if (submission.status !== "success") return;
    expect(submission.value.version).toBe(3);
    expect(submission.value.intent).toBe("save-config");
    expect(submission.value.config.source).toEqual({
      kind: "registry",
      connectionId: "0b9c1f0e-3a53-4f4e-9a4e-4a7d1c2e9b10",
      repository: "acme/web",
      tag: "1.4.2",
    });
  });

  it("gives the contract's messages on the fields, as the create form does", () => {
    const errors = parse(formData({ "config.source.tag": "bad tag!" })).reply().error ?? {};
    expect(errors["config.source.tag"]).toEqual([
      "Tag must be letters, digits, _ . and - (such as 1.4.2 or latest)",
    ]);
  });

  it("asks for the certificate when a domain is typed, in the browser and in the action", async () => {
    const withDomain = formData({ "config.domain.host": "app.example.com" });
    expect(parse(withDomain).reply().error?.["config.domain.certificateId"]).toEqual([
      "Choose the TLS certificate that covers the domain",
    ]);
    const action = parseWithZod(withDomain, {
      schema: await editApplicationActionSchema(),
      disableAutoCoercion: true,
    });
    expect(action.reply().error?.["config.domain.certificateId"]).toEqual([
      "Choose the TLS certificate that covers the domain",
    ]);
  });

  it("checks the Helm values' YAML in the action only", async () => {
    const helm = formData({
      "config.source.kind": "helm",
      "config.source.connectionId": undefined,
      "config.source.repository": undefined,
      "config.source.tag": undefined,
      "config.source.chartRepositoryId": "0b9c1f0e-3a53-4f4e-9a4e-4a7d1c2e9b10",
      "config.source.chart": "nginx",
      "config.source.version": "1.2.3",
      "config.source.values": "a: [1\n",
    });
    expect(parse(helm).status).toBe("success");
    const action = parseWithZod(helm, {
      schema: await editApplicationActionSchema(),
      disableAutoCoercion: true,
    });
    expect(Object.keys(action.reply().error ?? {})).toEqual(["config.source.values"]);
  });

  it("starts from the stored configuration, the defaults filling what it lacks", () => {
    const stored = { source: { kind: "image", image: "nginx:1.27" }, cpu: "1", memoryMb: 2048 };
    const editable = editableApplicationConfig(stored);
    expect(editable.source).toEqual({ kind: "image", image: "nginx:1.27" });
    expect(editable.cpu).toBe("1");
    expect(editable.healthCheck).toEqual(defaultApplicationConfig.healthCheck);
    expect(editable.domain).toEqual({ host: "", certificateId: "" });
  });
});
