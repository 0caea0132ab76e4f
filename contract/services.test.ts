import { describe, expect, it } from "vitest";
import { fieldErrorsOf } from "./errors";
import { creatableServiceTypes, noContainerFormMessage, serviceTypes } from "./service-catalogue";
import {
  createResourceRequestSchema,
  defaultServiceSettings,
  logQuerySchema,
  metricsQuerySchema,
  serviceErrorMessages,
  servicePaths,
  serviceSettingsSchema,
} from "./services";
import { cidrBlockSchema, defaultServiceConfigs, serviceConfigSchemas } from "./service-configs";

/** The defaults with the fields a user must fill in filled in, as a create page submits them. */
const filledIn = {
  "file-storage": { bucketName: "acme-assets.prod" },
  "nosql-database": { tableName: "orders" },
  serverless: { uploadId: "upload-1" },
  tls: { domain: "*.acme.example" },
  application: { image: "ghcr.io/acme/web:1.4.2" },
} as Record<string, Record<string, unknown>>;

describe("service configuration schemas", () => {
  it.each(creatableServiceTypes)(
    "accepts the %s create page's defaults once the required fields are filled",
    (type) => {
      const config = { ...defaultServiceConfigs[type], ...filledIn[type] };
      expect(serviceConfigSchemas[type].safeParse(config).success).toBe(true);
    },
  );

  it("offers only the versions of the chosen engine", () => {
    const result = serviceConfigSchemas.database.safeParse({
      ...defaultServiceConfigs.database,
      engine: "mysql",
    });
    expect(result.success).toBe(false);
    if (!result.success)
      expect(fieldErrorsOf(result.error)).toEqual({ version: ["Version is not offered for this engine"] });
  });

  it("reports numbers out of range with the field's label", () => {
    const result = serviceConfigSchemas.database.safeParse({
      ...defaultServiceConfigs.database,
      storageGb: 5,
    });
    expect(result.success).toBe(false);
    if (!result.success)
      expect(fieldErrorsOf(result.error).storageGb).toEqual(["Storage (GB) must be between 20 and 16384"]);
  });

  it("checks bucket names with the lowercase-with-periods pattern of SPEC §5", () => {
    const bucket = (bucketName: string) =>
      serviceConfigSchemas["file-storage"].safeParse({ ...defaultServiceConfigs["file-storage"], bucketName })
        .success;
    expect(bucket("acme-assets.prod")).toBe(true);
    expect(bucket("Acme_Assets")).toBe(false);
    expect(bucket("-acme")).toBe(false);
  });

  it("accepts wildcard certificate domains and rejects malformed ones", () => {
    const domain = (value: string) =>
      serviceConfigSchemas.tls.safeParse({ ...defaultServiceConfigs.tls, domain: value }).success;
    expect(domain("*.acme.example")).toBe(true);
    expect(domain("api.acme.example")).toBe(true);
    expect(domain("api..acme")).toBe(false);
    expect(domain("*.*.acme.example")).toBe(false);
  });

  it("needs a serverless archive", () => {
    const result = serviceConfigSchemas.serverless.safeParse(defaultServiceConfigs.serverless);
    expect(result.success).toBe(false);
    if (!result.success)
      expect(fieldErrorsOf(result.error).uploadId).toEqual(["Upload a function archive (.zip)"]);
  });
});

describe("cidrBlockSchema", () => {
  it.each(["10.0.0.0/16", "172.16.0.0/20", "192.168.10.0/24"])("accepts %s", (cidr) => {
    expect(cidrBlockSchema.safeParse(cidr).success).toBe(true);
  });
  it.each(["10.0.0.1/16", "10.0.0.0/8", "256.0.0.0/16", "10.0.0.0", "10.0.0.0/25"])("rejects %s", (cidr) => {
    expect(cidrBlockSchema.safeParse(cidr).success).toBe(false);
  });
});

describe("serviceSettingsSchema", () => {
  it("accepts the defaults", () => {
    expect(serviceSettingsSchema.parse(defaultServiceSettings)).toEqual(defaultServiceSettings);
  });

  it("keeps the maximum instances at least the minimum, and the health check's timeout under its interval", () => {
    const result = serviceSettingsSchema.safeParse({
      ...defaultServiceSettings,
      scaling: { minInstances: 4, maxInstances: 2, targetCpuPercent: 70 },
      healthCheck: { ...defaultServiceSettings.healthCheck, timeoutSeconds: 30, intervalSeconds: 10 },
    });
    expect(result.success).toBe(false);
    if (!result.success)
      expect(fieldErrorsOf(result.error)).toMatchObject({
        "scaling.maxInstances": ["Maximum instances must be at least the minimum"],
        "healthCheck.timeoutSeconds": ["Timeout must be shorter than the interval"],
      });
  });

  it("refuses a variable name used twice", () => {
    const result = serviceSettingsSchema.safeParse({
      ...defaultServiceSettings,
      envvars: [
        { name: "API_KEY", value: "a" },
        { name: "API_KEY", value: "b" },
      ],
    });
    expect(result.success).toBe(false);
  });
});

describe("requests and queries", () => {
  it("names a bad service name with SPEC §5's message", () => {
    const result = createResourceRequestSchema.safeParse({
      serviceType: "cache",
      name: "Orders_Cache",
      config: {},
      launch: true,
    });
    expect(result.success).toBe(false);
    if (!result.success)
      expect(fieldErrorsOf(result.error).name).toEqual([
        "Value must contain only lowercase letters, digits and hyphens, and begin and end with a letter or digit.",
      ]);
  });

  it("bounds log searches to the date pickers' range (1900-01-01 to 2099-12-31)", () => {
    expect(logQuerySchema.safeParse({ from: "1899-12-31T23:00:00Z" }).success).toBe(false);
    expect(logQuerySchema.safeParse({ to: "2100-01-01T00:00:00Z" }).success).toBe(false);
    expect(
      logQuerySchema.safeParse({ from: "2026-11-22T10:00:00Z", to: "2026-11-22T09:00:00Z" }).success,
    ).toBe(false);
    expect(logQuerySchema.parse({ from: "2026-11-22T09:00:00Z" }).logType).toBe("LIVE");
  });

  it("limits metrics to 500 points", () => {
    expect(metricsQuerySchema.safeParse({ range: "7d", step: 60 }).success).toBe(false);
    expect(metricsQuerySchema.parse({ range: "1h", step: "60" })).toEqual({ range: "1h", step: 60 });
  });

  it("builds paths with encoded segments and only the filters given", () => {
    expect(servicePaths.list("t-1", "w-1", { serviceType: "cache", text: "" })).toBe(
      "/v2/organizations/t-1/environments/w-1/infrastructure?serviceType=cache",
    );
    expect(servicePaths.attribute("t", "w", "r", "connection string")).toBe(
      "/v2/organizations/t/environments/w/infrastructure/r/attributes/connection%20string",
    );
  });

  it("quotes SPEC §8's retry-limit message word for word", () => {
    expect(serviceErrorMessages.retryLimit).toBe(
      "Maximum number of retries reached. Please contact support for assistance or alter your infrastructure configuration.",
    );
  });
});

describe("what a container host runs (issue 26)", () => {
  it("says queues and file storage cannot run on a container host yet: the containers driver has no server for them", () => {
    expect(noContainerFormMessage("queue")).toBe(
      "A queue cannot run on a container host yet: the container driver has no server for it. Create it in an environment on a cloud account.",
    );
    expect(noContainerFormMessage("file-storage")).toBe(
      "A file storage cannot run on a container host yet: the container driver has no server for it. Create it in an environment on a cloud account.",
    );
  });

  it("says which types have no container form, in words, and nothing of those that have one", () => {
    expect(noContainerFormMessage("tls")).toBe(
      "A TLS certificate cannot run on a container host: it has no container form. Create it in an environment on a cloud account.",
    );
    expect(serviceTypes.filter((type) => noContainerFormMessage(type) !== null)).toEqual([
      "queue",
      "file-storage",
      "nosql-database",
      "serverless",
      "kubernetes",
      "control-plane",
      "network",
      "tls",
    ]);
  });
});
