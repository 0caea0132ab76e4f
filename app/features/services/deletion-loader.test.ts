import { http, HttpResponse } from "msw";
import { describe, expect, it } from "vitest";
import type { CloudProvider } from "#contract/cloud-providers";
import { defaultServiceConfigs } from "#contract/service-configs";
import { defaultServiceSettings, type Resource } from "#contract/services";
import { FAKE_PLATFORM_URL, fakePlatform } from "~/platform/fake-platform.test-support";
import { signedInCookie } from "~/platform/signed-in.test-support";

// The service page's loader hands its delete dialog the words of the place the environment deploys to: the
// environment's cloud provider and connection, as the session remembers them (requireEnvironmentIdentity).
const platform = FAKE_PLATFORM_URL;

const { loader } = await import("~/routes/_app.env.$environmentName_.services.$serviceId._index");

const { server } = fakePlatform();

const ordersDb: Resource = {
  id: "r1",
  environmentId: "env-prod",
  name: "orders-db",
  serviceType: "database",
  stage: "STAGE_COMPLETED",
  version: 2,
  retries: 0,
  message: null,
  monthlyCost: 12.5,
  region: "local",
  size: "db.t4g.micro",
  replicas: 1,
  failedSince: null,
  endpoint: "127.0.0.1:40123",
  driftedAt: null,
  hasDraft: false,
  createdAt: "2025-01-01T00:00:00Z",
  updatedAt: "2025-01-01T00:00:00Z",
  config: defaultServiceConfigs.database,
  settings: defaultServiceSettings,
  draft: null,
  pods: [],
  progress: null,
  secretAttributes: [],
  history: [],
};

/** orders-db's history tab (it asks the platform for the service alone) in prod, deployed where `place` says. */
async function deletionShown(place: { cloudProvider: CloudProvider; cloudConnectionId: string | null }) {
  const environment = `${platform}/api/v2/organizations/tenant-1/environments/env-prod`;
  server.use(
    http.get(`${environment}/infrastructure/r1`, () => HttpResponse.json({ resource: ordersDb })),
    http.get(`${environment}/snapshots`, () => HttpResponse.json({ snapshots: [] })),
  );
  const cookie = await signedInCookie({
    environment: {
      name: "prod",
      id: "env-prod",
      region: "local",
      ...place,
    },
  });
  const response = await loader({
    request: new Request("https://console.example/env/prod/services/r1?tab=history", {
      headers: { Cookie: cookie },
    }),
    params: { environmentName: "prod", serviceId: "r1" },
    context: {},
  });
  return response.data.deletion;
}

describe("the delete dialog's words, from the service page's loader", () => {
  it("says a database on a container host loses its container and volume, and keeps nothing", async () => {
    expect(await deletionShown({ cloudProvider: "CONTAINERS", cloudConnectionId: "conn-host" })).toEqual({
      destroyed: "Removed from the container host: its container and its named volume, which holds its data.",
      kept: "Nothing is kept: a container host takes no snapshot.",
    });
  });

  it("keeps AWS's words in an AWS account, and says nothing for the simulated cloud", async () => {
    expect(await deletionShown({ cloudProvider: "AWS", cloudConnectionId: "conn-aws" })).toMatchObject({
      destroyed: expect.stringContaining("its RDS instance with its data"),
      kept: expect.stringContaining("A final snapshot of its data is kept"),
    });
    expect(await deletionShown({ cloudProvider: "AWS", cloudConnectionId: null })).toEqual({
      destroyed: null,
      kept: null,
    });
  });
});
