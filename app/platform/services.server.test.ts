import { HttpResponse, http } from "msw";
import { describe, expect, it } from "vitest";
import { defaultServiceSettings, serviceErrorMessages } from "#contract/services";
import { isPlatformError } from "./client.server";
import { FAKE_PLATFORM_URL, fakePlatform } from "./fake-platform.test-support";
import {
  addObservabilityProvider,
  createService,
  deleteService,
  estimateServiceCost,
  getService,
  getWildcardCertificate,
  listChartRepositories,
  listServices,
  retryService,
  revealServiceAttribute,
  saveServiceDraft,
  uploadServerlessArchive,
} from "./services.server";

const BASE_URL = FAKE_PLATFORM_URL;
const level = `${BASE_URL}/api/v2/organizations/t1/environments/w1`;

const { server, api } = fakePlatform();

const summary = {
  id: "r1",
  environmentId: "w1",
  name: "orders-db",
  serviceType: "database",
  stage: "STAGE_QUEUED",
  version: 1,
  retries: 0,
  message: null,
  monthlyCost: 12.5,
  region: "us-east-1",
  size: "db.t4g.micro",
  replicas: 1,
  failedSince: null,
  endpoint: null,
  driftedAt: null,
  hasDraft: false,
  createdAt: "2025-01-01T00:00:00Z",
  updatedAt: "2025-01-01T00:00:00Z",
};
const resource = {
  ...summary,
  config: { engine: "postgres" },
  settings: defaultServiceSettings,
  draft: null,
  pods: [],
  progress: null,
  secretAttributes: ["password"],
  history: [],
};

describe("services client", () => {
  it("lists with the filters as query parameters", async () => {
    let url: URL | undefined;
    server.use(
      http.get(`${level}/infrastructure`, ({ request }) => {
        url = new URL(request.url);
        return HttpResponse.json({ infrastructure: [summary], total: 1, page: 2, pageSize: 50 });
      }),
    );
    const list = await listServices(api, "t1", "w1", { serviceType: "database", text: "orders", page: 2 });
    expect(list.total).toBe(1);
    expect(list.infrastructure[0]?.name).toBe("orders-db");
    expect(url?.searchParams.get("serviceType")).toBe("database");
    expect(url?.searchParams.get("text")).toBe("orders");
    expect(url?.searchParams.get("page")).toBe("2");
    expect(url?.searchParams.has("stage")).toBe(false);
  });

  it("creates with the request body and answers the resource", async () => {
    let body: unknown;
    server.use(
      http.post(`${level}/infrastructure`, async ({ request }) => {
        body = await request.json();
        return HttpResponse.json({ resource }, { status: 201 });
      }),
    );
    const created = await createService(api, "t1", "w1", {
      serviceType: "database",
      name: "orders-db",
      config: { engine: "postgres" },
      launch: true,
    });
    expect(created.id).toBe("r1");
    expect(body).toEqual({
      serviceType: "database",
      name: "orders-db",
      config: { engine: "postgres" },
      launch: true,
    });
  });

  it("turns a 400 into a PlatformError with the field errors", async () => {
    server.use(
      http.post(`${level}/infrastructure`, () =>
        HttpResponse.json(
          {
            message: "Validation failed",
            code: "VALIDATION_FAILED",
            fieldErrors: { "config.storageGb": ["Storage (GB) must be between 20 and 16384"] },
          },
          { status: 400 },
        ),
      ),
    );
    const error = await createService(api, "t1", "w1", {
      serviceType: "database",
      name: "orders-db",
      config: {},
      launch: false,
    }).catch((caught: unknown) => caught);
    expect(isPlatformError(error) && error.fieldErrors).toEqual({
      "config.storageGb": ["Storage (GB) must be between 20 and 16384"],
    });
  });

  it("gets, saves a draft, retries, reveals and deletes on the service's own paths", async () => {
    const seen: string[] = [];
    server.use(
      http.get(`${level}/infrastructure/r1`, () => HttpResponse.json({ resource })),
      http.put(`${level}/infrastructure/r1/draft`, async ({ request }) => {
        seen.push(`draft ${JSON.stringify(await request.json())}`);
        return HttpResponse.json({ resource: { ...resource, hasDraft: true } });
      }),
      http.post(`${level}/infrastructure/r1/retry`, () => HttpResponse.json({ success: true })),
      http.get(`${level}/infrastructure/r1/attributes/password`, () =>
        HttpResponse.json({ attribute: "password", value: "s3cret" }),
      ),
      http.delete(`${level}/infrastructure/r1`, () => {
        seen.push("delete");
        return new HttpResponse(null, { status: 204 });
      }),
    );
    expect((await getService(api, "t1", "w1", "r1")).secretAttributes).toEqual(["password"]);
    expect((await saveServiceDraft(api, "t1", "w1", "r1", { version: 1, config: {} })).hasDraft).toBe(true);
    expect(await retryService(api, "t1", "w1", "r1")).toBe(true);
    expect(await revealServiceAttribute(api, "t1", "w1", "r1", "password")).toBe("s3cret");
    expect(await deleteService(api, "t1", "w1", "r1")).toBe("deleted");
    expect(seen).toEqual(['draft {"version":1,"config":{}}', "delete"]);
  });

  it("tells a deletion its cloud is still tearing down (202) from one that is done (204)", async () => {
    server.use(
      http.delete(`${level}/infrastructure/r1`, () =>
        HttpResponse.json({ resource: { ...resource, stage: "STAGE_IN_PROGRESS" } }, { status: 202 }),
      ),
    );
    expect(await deleteService(api, "t1", "w1", "r1")).toBe("deleting");
  });

  it("estimates the cost", async () => {
    server.use(
      http.post(`${level}/infrastructure/estimate-cost`, () =>
        HttpResponse.json({
          currency: "USD",
          monthlyCost: 30,
          breakdown: [{ item: "Instance", monthlyCost: 30 }],
        }),
      ),
    );
    const estimate = await estimateServiceCost(api, "t1", "w1", { serviceType: "cache", config: {} });
    expect(estimate.monthlyCost).toBe(30);
  });

  it("uploads the archive as multipart in the field file", async () => {
    let fileName: string | undefined;
    server.use(
      http.post(`${level}/infrastructure/serverless/upload`, async ({ request }) => {
        const file = (await request.formData()).get("file");
        fileName = file instanceof File ? file.name : undefined;
        return HttpResponse.json(
          {
            upload: {
              id: "u1",
              fileName: fileName ?? "",
              sizeBytes: 4,
              sha256: "abc",
              createdAt: "2025-01-01T00:00:00Z",
            },
          },
          { status: 201 },
        );
      }),
    );
    const upload = await uploadServerlessArchive(api, "t1", "w1", new Blob(["PK.."]), "fn.zip");
    expect(upload.id).toBe("u1");
    expect(fileName).toBe("fn.zip");
  });

  it("answers null when no wildcard certificate covers the domain", async () => {
    let domain: string | null = null;
    server.use(
      http.get(`${level}/wildcardcertificate`, ({ request }) => {
        domain = new URL(request.url).searchParams.get("domain");
        return HttpResponse.json({ certificate: null });
      }),
    );
    expect(await getWildcardCertificate(api, "t1", "w1", "example.com")).toBeNull();
    expect(domain).toBe("example.com");
  });

  it("sends the connection id under its contract name and lists chart repositories", async () => {
    let body: unknown;
    server.use(
      http.post(`${level}/observability/providers`, async ({ request }) => {
        body = await request.json();
        return HttpResponse.json(
          {
            provider: {
              id: "p1",
              connectionId: "datadog",
              createdAt: "2025-01-01T00:00:00Z",
              connectionName: "Datadog EU",
              connectionKind: "OBSERVABILITY_PROVIDER_TYPE_DATADOG",
              lastForwardedAt: null,
              lastForwardError: null,
              dashboardUrl: "https://app.datadoghq.eu/metric/explorer",
            },
          },
          { status: 201 },
        );
      }),
      http.get(`${level}/chart-repositories`, () => HttpResponse.json({ chartRepositories: [] })),
    );
    expect((await addObservabilityProvider(api, "t1", "w1", "datadog")).id).toBe("p1");
    expect(body).toEqual({ "connection-id": "datadog" });
    expect(await listChartRepositories(api, "t1", "w1")).toEqual([]);
  });

  it("keeps the platform's message on a conflict", async () => {
    server.use(
      http.post(`${level}/infrastructure/r1/retry`, () =>
        HttpResponse.json({ message: serviceErrorMessages.retryLimit, code: "CONFLICT" }, { status: 409 }),
      ),
    );
    const error = await retryService(api, "t1", "w1", "r1").catch((caught: unknown) => caught);
    expect(isPlatformError(error) && error.message).toBe(serviceErrorMessages.retryLimit);
  });
});
