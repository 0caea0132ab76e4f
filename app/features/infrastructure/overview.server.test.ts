import { HttpResponse, http } from "msw";
import { describe, expect, it } from "vitest";
import { apiErrorCodes } from "#contract/errors";
import { FAKE_PLATFORM_URL, fakePlatform } from "~/platform/fake-platform.test-support";
import { loadInfrastructureOverview } from "./overview.server";

const BASE_URL = FAKE_PLATFORM_URL;
const organization = `${BASE_URL}/api/v2/organizations/t1`;
const level = `${organization}/environments/w1`;

const { server, api } = fakePlatform();

const now = new Date("2026-03-10T12:00:00Z");
const node = (id: string, serviceType: string, stage = "STAGE_COMPLETED", domain: string | null = null) => ({
  id,
  name: id,
  serviceType,
  stage,
  domain,
});
const certificate = (resourceId: string, domain: string) => ({
  id: `arn:aws:acm:us-east-1:123456789012:certificate/${resourceId}`,
  resourceId,
  domain,
  subjectAlternativeNames: [],
  status: "ISSUED",
  expiresAt: "2026-04-09T12:00:00.000Z",
});
const failedSummary = {
  id: "cache-1",
  environmentId: "w1",
  name: "sessions-fail-deploy",
  serviceType: "cache",
  stage: "STAGE_FAILED",
  version: 2,
  retries: 1,
  message: "Health check failed",
  monthlyCost: 0,
  region: "us-east-1",
  size: "cache.t4g.micro",
  replicas: 1,
  failedSince: "2026-03-10T10:00:00.000Z",
  endpoint: null,
  driftedAt: null,
  hasDraft: false,
  createdAt: "2026-03-10T09:00:00.000Z",
  updatedAt: "2026-03-10T11:00:00.000Z",
};

function platform({ costStatus = 200 }: { costStatus?: number } = {}) {
  const asked: string[] = [];
  server.use(
    http.get(`${level}/infrastructure-map`, () =>
      HttpResponse.json({
        nodes: [
          node("web", "application", "STAGE_COMPLETED", "shop.example.com"),
          node("main-cluster", "kubernetes"),
          node("sessions-fail-deploy", "cache", "STAGE_FAILED"),
          node("shop-cert", "tls", "STAGE_COMPLETED", "shop.example.com"),
          node("wild-cert", "tls", "STAGE_COMPLETED", "*.example.com"),
        ],
        links: [
          { from: "web", to: "main-cluster", kind: "runs-on" },
          { from: "web", to: "shop-cert", kind: "certificate" },
        ],
      }),
    ),
    http.get(`${level}/infrastructure`, ({ request }) => {
      asked.push(new URL(request.url).search);
      return HttpResponse.json({ infrastructure: [failedSummary], total: 1, page: 1, pageSize: 200 });
    }),
    http.get(`${level}/applications/loadbalancers`, () =>
      HttpResponse.json({
        loadBalancers: [
          {
            id: "lb-1",
            name: "w1-public",
            dnsName: "w1-public.elb.example",
            scheme: "internet-facing",
            resourceIds: ["web"],
            routes: [
              {
                resourceId: "web",
                host: "shop.example.com",
                path: "/",
                listenerPort: 443,
                protocol: "HTTP",
                targetPort: 8080,
                certificateId: certificate("shop-cert", "shop.example.com").id,
              },
            ],
          },
        ],
      }),
    ),
    http.get(`${level}/certificates/match`, ({ request }) => {
      asked.push(`match ${new URL(request.url).searchParams.get("domain")}`);
      return HttpResponse.json({ certificate: certificate("shop-cert", "shop.example.com") });
    }),
    http.get(`${level}/wildcardcertificate`, ({ request }) => {
      asked.push(`wildcard ${new URL(request.url).searchParams.get("domain")}`);
      return HttpResponse.json({ certificate: certificate("wild-cert", "*.example.com") });
    }),
    http.get(`${organization}/cost`, ({ request }) => {
      asked.push(`cost ${new URL(request.url).search}`);
      if (costStatus === 403) {
        return HttpResponse.json(
          { code: apiErrorCodes.permissionDenied, message: "You do not have permission" },
          { status: 403 },
        );
      }
      return HttpResponse.json({
        window: { window: "mtd", label: "Month to date", from: "2026-03-01", to: "2026-03-10" },
        total: 41.5,
        monthToDate: 41.5,
        forecast: 128.25,
        forecastMethod: "…",
        lastMonth: 100,
        changeFromLastMonth: 28.3,
        accruedUntil: "2026-03-10T11:00:00.000Z",
        byEnvironment: [],
        byServiceType: [],
        topServices: [],
        daily: [],
        environments: [],
        previews: [],
      });
    }),
  );
  return asked;
}

describe("the infrastructure overview", () => {
  it("counts stages, lists what fails since when, this month's spend, balancers, certificates and the diagram", async () => {
    const asked = platform();
    const overview = await loadInfrastructureOverview(api, "t1", { id: "w1", name: "production" }, now);

    expect(overview.total).toBe(5);
    expect(overview.stageCounts).toEqual([
      { stage: "STAGE_COMPLETED", count: 4 },
      { stage: "STAGE_FAILED", count: 1 },
    ]);
    expect(asked).toContain("?stage=STAGE_FAILED&pageSize=200");
    expect(overview.failing).toEqual([
      {
        id: "cache-1",
        name: "sessions-fail-deploy",
        type: "Cache",
        message: "Health check failed",
        failedSince: "2026-03-10T10:00:00.000Z",
        failingFor: "2 hours",
        retries: 1,
      },
    ]);
    expect(overview.spend).toEqual({
      kind: "shown",
      monthToDate: 41.5,
      forecast: 128.25,
      accruedUntil: "2026-03-10T11:00:00.000Z",
      costPage: "/cost?window=mtd&environmentId=w1",
    });
    expect(asked).toContain("cost ?window=mtd&environmentId=w1");
    expect(overview.loadBalancers[0]?.routes).toEqual([
      {
        application: "web",
        applicationId: "web",
        listener: "HTTP 443",
        match: "shop.example.com/",
        targetPort: 8080,
        certificate: "shop.example.com",
      },
    ]);
    // Each TLS domain asked once, a wildcard one through wildcardcertificate.
    expect(asked.filter((entry) => entry.startsWith("match") || entry.startsWith("wildcard")).sort()).toEqual(
      ["match shop.example.com", "wildcard example.com"],
    );
    expect(
      overview.certificates.map(({ name, domain, status, expiresInDays }) => [
        name,
        domain,
        status,
        expiresInDays,
      ]),
    ).toEqual([
      ["wild-cert", "*.example.com", "ISSUED", 30],
      ["shop-cert", "shop.example.com", "ISSUED", 30],
    ]);
    expect(overview.diagram.clusters[0]?.applications.map((application) => application.name)).toEqual([
      "web",
    ]);
  });

  it("hides the spend from a member without billing.view (the platform answers 403)", async () => {
    platform({ costStatus: 403 });
    const overview = await loadInfrastructureOverview(api, "t1", { id: "w1", name: "production" }, now);
    expect(overview.spend).toEqual({ kind: "hidden" });
    expect(JSON.stringify(overview)).not.toContain("41.5");
  });
});
