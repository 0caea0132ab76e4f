import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import { costOverviewSchema, costPaths } from "#contract/cost";
import { accrueUsage } from "../cost/accrual";
import { previews, usageSegments } from "../db/schema";
import { openTestApi, type TestMember } from "../testing/http-harness";

/*
 * What pull requests' previews cost (issue 28): the cost overview names, among the window's environments, those that
 * are previews, with their pull request and the environment they preview, a removed one's cost included.
 */
const clock = new Date("2031-05-20T12:30:00.000Z");
const api = await openTestApi({}, { now: () => clock });
afterAll(() => api.close());

let admin: TestMember;
let staging: string;
let livePreview: string;
const removedPreview = randomUUID();

/** A service of `monthlyCost` in `environment`, running over `[from, to)`. */
function ran(environmentId: string, environmentName: string, monthlyCost: number, from: string, to?: string) {
  return {
    organizationId: admin.organization.organizationId,
    environmentId,
    environmentName,
    resourceId: randomUUID(),
    serviceName: "web",
    serviceType: "application",
    cloudProvider: "AWS",
    region: "us-east-1",
    cloudAccount: "simulated",
    size: "test",
    replicas: 1,
    cpu: 0,
    memoryGb: 0,
    cpuUsed: 0,
    memoryUsedGb: 0,
    monthlyCost,
    startedAt: new Date(from),
    endedAt: to ? new Date(to) : null,
  };
}

function preview(values: {
  environmentId: string | null;
  environmentName: string;
  number: number;
  title: string;
}) {
  return {
    ...values,
    tenantId: admin.organization.tenantId,
    sourceEnvironmentId: staging,
    sourceEnvironmentName: "staging",
    repository: "acme/web",
    connectionId: randomUUID(),
    author: "octocat",
    url: `https://github.com/acme/web/pull/${values.number}`,
    headBranch: `feature-${values.number}`,
    headSha: "a".repeat(40),
    state: values.environmentId ? "READY" : "REMOVED",
    lastActivityAt: clock,
  };
}

beforeAll(async () => {
  admin = await api.createMember({ role: "admin" });
  const { tenantId } = admin.organization;
  staging = (await api.createEnvironment(tenantId, "staging")).id;
  livePreview = (await api.createEnvironment(tenantId, "pr-7")).id;
  await api.db.insert(previews).values([
    preview({
      environmentId: livePreview,
      environmentName: "pr-7",
      number: 7,
      title: "Show prices with VAT",
    }),
    // Closed on May 4th: its environment is gone, its row keeps the name it had.
    preview({ environmentId: null, environmentName: "pr-3", number: 3, title: "A new footer" }),
  ]);
  await api.db
    .insert(usageSegments)
    .values([
      ran(staging, "staging", 730, "2031-05-01T00:00:00.000Z"),
      ran(livePreview, "pr-7", 73, "2031-05-10T00:00:00.000Z"),
      ran(removedPreview, "pr-3", 146, "2031-05-02T00:00:00.000Z", "2031-05-04T00:00:00.000Z"),
    ]);
  await accrueUsage(api.db, { now: clock });
});

it("names each preview in the window with its pull request and its source, costliest first", async () => {
  const { tenantId } = admin.organization;
  const response = await api.call("GET", costPaths.overview(tenantId, { window: "mtd" }), {
    token: admin.user.token,
  });
  expect(response.status, await response.clone().text()).toBe(200);
  const overview = costOverviewSchema.parse(await response.json());
  expect(overview.previews).toEqual([
    {
      environmentId: livePreview,
      environmentName: "pr-7",
      number: 7,
      title: "Show prices with VAT",
      url: "https://github.com/acme/web/pull/7",
      sourceName: "staging",
      cost: 25.2,
    },
    {
      environmentId: removedPreview,
      environmentName: "pr-3",
      number: 3,
      title: "A new footer",
      url: "https://github.com/acme/web/pull/3",
      sourceName: "staging",
      cost: 9.6,
    },
  ]);

  // Another organization sees none of them.
  const stranger = await api.createMember({ role: "admin" });
  const theirs = await api.call(
    "GET",
    costPaths.overview(stranger.organization.tenantId, { window: "mtd" }),
    {
      token: stranger.user.token,
    },
  );
  expect(costOverviewSchema.parse(await theirs.json()).previews).toEqual([]);
});
