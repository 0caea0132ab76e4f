import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { count, eq } from "drizzle-orm";
import { apiErrorCodes } from "#contract/errors";
import {
  alarmListSchema,
  defaultServiceSettings,
  logListSchema,
  metricsSchema,
  serviceErrorMessages,
  servicePaths,
} from "#contract/services";
import { defaultServiceConfigs } from "#contract/service-configs";
import { resourceLogs, resources } from "../db/schema";
import { openTestApi, uniqueName, type TestApi, type TestMember } from "../testing/http-harness";

let api: TestApi;
let member: TestMember;
let environmentId: string;
beforeAll(async () => {
  api = await openTestApi();
  member = await api.createMember();
  environmentId = (await api.createEnvironment(member.organization.tenantId)).id;
});
afterAll(() => api.close());

type NewService = typeof resources.$inferInsert;

/** A service row as the engine leaves it after a deployment (the create endpoint is tested elsewhere). */
async function createService(overrides: Partial<NewService> = {}) {
  const name = overrides.name ?? uniqueName("db");
  const [row] = await api.db
    .insert(resources)
    .values({
      environmentId,
      name,
      serviceType: "database",
      stage: "STAGE_COMPLETED",
      config: defaultServiceConfigs.database,
      settings: defaultServiceSettings,
      pods: [
        { name: `${name}-0`, status: "Running" },
        { name: `${name}-1`, status: "Running" },
      ],
      deployedAt: new Date(Date.now() - 5 * 60_000),
      ...overrides,
    })
    .returning();
  if (!row) throw new Error("service was not created");
  return row;
}

async function addLines(
  resourceId: string,
  lines: { at: string; podName: string; level: string; message: string }[],
) {
  await api.db
    .insert(resourceLogs)
    .values(lines.map((line) => ({ ...line, resourceId, at: new Date(line.at) })));
}

const get = (path: string) => api.call("GET", path, { token: member.user.token });
const logsPath = (id: string, query: Parameters<typeof servicePaths.logs>[3] = {}) =>
  servicePaths.logs(member.organization.tenantId, environmentId, id, query);

async function lineCount(resourceId: string) {
  const [row] = await api.db
    .select({ value: count() })
    .from(resourceLogs)
    .where(eq(resourceLogs.resourceId, resourceId));
  return row?.value ?? 0;
}

describe("GET resources/:resourceId/logs", () => {
  it("writes the running pods' lines once, then tails the newest ascending, then what came after", async () => {
    const service = await createService();
    const response = await get(logsPath(service.id, { limit: 20 }));
    expect(response.status).toBe(200);
    const { logs, podNames } = logListSchema.parse(await response.json());
    expect(podNames).toEqual([`${service.name}-0`, `${service.name}-1`]);
    expect(logs).toHaveLength(20);
    const ids = logs.map((line) => Number(line.id));
    expect([...ids].sort((a, b) => a - b)).toEqual(ids);
    for (const line of logs) {
      expect(line.message).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3} UTC \[\d+\] [A-Z]+: {2}/);
      expect(podNames).toContain(line.podName);
    }
    const stored = await lineCount(service.id);
    expect(stored).toBeGreaterThan(20);
    const [after] = await api.db.select().from(resources).where(eq(resources.id, service.id));
    expect(after?.logsWrittenUntil).toBeInstanceOf(Date);

    // The last line is the newest stored.
    const all = await api.db.select().from(resourceLogs).where(eq(resourceLogs.resourceId, service.id));
    expect(Number(logs.at(-1)?.id)).toBe(Math.max(...all.map((line) => line.id)));

    const middle = logs[9]?.id ?? "";
    const tail = logListSchema.parse(
      await (await get(logsPath(service.id, { after: middle, limit: 5 }))).json(),
    );
    expect(tail.logs.map((line) => line.id)).toEqual(
      all
        .map((line) => line.id)
        .filter((id) => id > Number(middle))
        .sort((a, b) => a - b)
        .slice(0, 5)
        .map(String),
    );
  });

  it("does not write a line twice when reads race", async () => {
    const service = await createService({ deployedAt: new Date(Date.now() - 10 * 60_000) });
    const responses = await Promise.all(Array.from({ length: 5 }, () => get(logsPath(service.id))));
    expect(responses.map((response) => response.status)).toEqual([200, 200, 200, 200, 200]);
    const lines = await api.db.select().from(resourceLogs).where(eq(resourceLogs.resourceId, service.id));
    const keys = lines.map((line) => `${line.at.toISOString()} ${line.podName} ${line.message}`);
    expect(new Set(keys).size).toBe(keys.length);
    expect(lines.length).toBeGreaterThan(0);
  });

  it("writes nothing for a service that does not run (draft, failed, without running pods)", async () => {
    const draft = await createService({ stage: "STAGE_DRAFT", deployedAt: null, pods: [] });
    const failed = await createService({ stage: "STAGE_FAILED" });
    const pending = await createService({ pods: [{ name: "p-0", status: "Pending" }] });
    for (const service of [draft, failed, pending]) {
      const response = await get(logsPath(service.id));
      expect(response.status).toBe(200);
      expect(logListSchema.parse(await response.json()).logs).toEqual([]);
      expect(await lineCount(service.id)).toBe(0);
    }
  });

  it("searches by text (with % and _ literal), level, time and pods, newest first", async () => {
    const service = await createService({ stage: "STAGE_FAILED", pods: [] });
    await addLines(service.id, [
      {
        at: "2026-11-22T10:00:00.000Z",
        podName: "a-0",
        level: "info",
        message: "checkpoint complete: wrote 10 buffers (0.1%)",
      },
      {
        at: "2026-11-22T10:01:00.000Z",
        podName: "a-1",
        level: "error",
        message: "ERROR: duplicate key value",
      },
      { at: "2026-11-22T10:02:00.000Z", podName: "a-0", level: "warn", message: "WARNING: slow statement" },
      { at: "2026-11-22T10:03:00.000Z", podName: "a-1", level: "info", message: "checkpoint starting: time" },
      { at: "2026-11-22T10:04:00.000Z", podName: "a-0", level: "info", message: "wrote 100 of 1000 rows" },
    ]);
    const search = async (query: Parameters<typeof logsPath>[1]) => {
      const response = await get(logsPath(service.id, { logType: "SEARCH", ...query }));
      expect(response.status).toBe(200);
      return logListSchema.parse(await response.json()).logs.map((line) => line.message);
    };
    expect(await search({ text: "CHECKPOINT" })).toEqual([
      "checkpoint starting: time",
      "checkpoint complete: wrote 10 buffers (0.1%)",
    ]);
    expect(await search({ text: "0.1%" })).toEqual(["checkpoint complete: wrote 10 buffers (0.1%)"]);
    expect(await search({ text: "1_0" })).toEqual([]);
    expect(await search({ level: "error" })).toEqual(["ERROR: duplicate key value"]);
    expect(await search({ from: "2026-11-22T10:01:00.000Z", to: "2026-11-22T10:03:00.000Z" })).toEqual([
      "checkpoint starting: time",
      "WARNING: slow statement",
      "ERROR: duplicate key value",
    ]);
    expect(await search({ podNames: "a-1, nobody" })).toEqual([
      "checkpoint starting: time",
      "ERROR: duplicate key value",
    ]);
    expect(await search({ limit: 2 })).toEqual(["wrote 100 of 1000 rows", "checkpoint starting: time"]);
  });

  it("answers 400 with field errors for a bad query, writing nothing", async () => {
    const service = await createService();
    for (const query of [
      { limit: 0 },
      { after: "abc" },
      { level: "fatal" as never },
      { logType: "TAIL" as never },
      { from: "2026-11-22T10:00:00Z", to: "2026-11-21T10:00:00Z" },
    ]) {
      const response = await get(logsPath(service.id, query));
      expect(response.status).toBe(400);
      const body = (await response.json()) as { code: string; fieldErrors: Record<string, string[]> };
      expect(body.code).toBe(apiErrorCodes.validationFailed);
      expect(Object.keys(body.fieldErrors).length).toBeGreaterThan(0);
    }
    expect(await lineCount(service.id)).toBe(0);
  });

  it("answers an empty tail for a cursor beyond every line", async () => {
    const service = await createService();
    const response = await get(logsPath(service.id, { after: "99999999999999999999999" }));
    expect(response.status).toBe(200);
    expect(logListSchema.parse(await response.json()).logs).toEqual([]);
  });

  it("answers 404 for a malformed id, another environment's service and an unknown environment", async () => {
    const other = await api.createEnvironment(member.organization.tenantId);
    const [foreign] = await api.db
      .insert(resources)
      .values({
        environmentId: other.id,
        name: "elsewhere",
        serviceType: "database",
        stage: "STAGE_COMPLETED",
        config: defaultServiceConfigs.database,
        settings: defaultServiceSettings,
      })
      .returning();
    for (const id of ["not-a-uuid", foreign?.id ?? "", "00000000-0000-4000-8000-000000000000"]) {
      for (const path of [
        logsPath(id),
        servicePaths.metrics(member.organization.tenantId, environmentId, id),
        servicePaths.alarms(member.organization.tenantId, environmentId, id),
      ]) {
        const response = await get(path);
        expect(response.status).toBe(404);
        expect(await response.json()).toEqual({
          message: serviceErrorMessages.notFound,
          code: apiErrorCodes.notFound,
        });
      }
    }
    const service = await createService();
    const unknownEnvironment = servicePaths.logs(
      member.organization.tenantId,
      "00000000-0000-4000-8000-000000000000",
      service.id,
    );
    expect((await get(unknownEnvironment)).status).toBe(404);
  });
});

describe("GET resources/:resourceId/metrics and metrics/alarms", () => {
  it("answers five series at the default step, only since the deployment", async () => {
    const service = await createService({ deployedAt: new Date(Date.now() - 30 * 60_000) });
    const response = await get(servicePaths.metrics(member.organization.tenantId, environmentId, service.id));
    expect(response.status).toBe(200);
    const metrics = metricsSchema.parse(await response.json());
    expect(metrics.range).toBe("1h");
    expect(metrics.step).toBe(60);
    expect(metrics.series.map((series) => series.metric)).toEqual([
      "cpu",
      "memory",
      "requests",
      "errors",
      "latency",
    ]);
    for (const series of metrics.series) {
      expect(series.points.length).toBeGreaterThanOrEqual(29);
      expect(series.points.length).toBeLessThanOrEqual(31);
    }

    const week = metricsSchema.parse(
      await (
        await get(
          servicePaths.metrics(member.organization.tenantId, environmentId, service.id, { range: "7d" }),
        )
      ).json(),
    );
    expect(week.step).toBe(10_080);
    const stepped = metricsSchema.parse(
      await (
        await get(
          servicePaths.metrics(member.organization.tenantId, environmentId, service.id, {
            range: "6h",
            step: 300,
          }),
        )
      ).json(),
    );
    expect(stepped.step).toBe(300);
  });

  it("answers alarms judged on the series, and none before a first deployment", async () => {
    const service = await createService();
    const response = await get(servicePaths.alarms(member.organization.tenantId, environmentId, service.id));
    expect(response.status).toBe(200);
    const { alarms } = alarmListSchema.parse(await response.json());
    expect(alarms.map((alarm) => alarm.name)).toEqual(["High CPU", "Error rate", "Latency p95", "Memory"]);

    const draft = await createService({ stage: "STAGE_DRAFT", deployedAt: null, pods: [] });
    expect(
      await (await get(servicePaths.alarms(member.organization.tenantId, environmentId, draft.id))).json(),
    ).toEqual({ alarms: [] });
    const metrics = metricsSchema.parse(
      await (await get(servicePaths.metrics(member.organization.tenantId, environmentId, draft.id))).json(),
    );
    expect(metrics.series.every((series) => series.points.length === 0)).toBe(true);
  });

  it("answers 400 for a step giving more than 500 points or an unknown range", async () => {
    const service = await createService();
    for (const query of ["?range=7d&step=60", "?range=2h", "?step=5"]) {
      const response = await get(
        `${servicePaths.metrics(member.organization.tenantId, environmentId, service.id)}${query}`,
      );
      expect(response.status).toBe(400);
      expect(((await response.json()) as { fieldErrors: object }).fieldErrors).toBeDefined();
    }
  });
});
