import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestApi, type TestApi } from "../testing/http-harness";
import { auditEvents, organizations } from "../db/schema";
import { purgeExpiredAuditEvents, startAuditRetention } from "./retention";

let api: TestApi;
beforeAll(async () => {
  api = await openTestApi();
});
afterAll(async () => {
  await api?.close();
});

const DAY = 24 * 60 * 60 * 1000;

async function organizationWithEvents(retentionDays: number, now: Date, ages: number[]) {
  const organization = await api.createOrganization();
  await api.db
    .update(organizations)
    .set({ auditRetentionDays: retentionDays })
    .where(eq(organizations.id, organization.organizationId));
  await api.db.insert(auditEvents).values(
    ages.map((days) => ({
      organizationId: organization.organizationId,
      at: new Date(now.getTime() - days * DAY),
      action: "environments.create",
      target: `${days} days old`,
      status: 201,
    })),
  );
  return organization.organizationId;
}

async function targetsOf(organizationId: string) {
  const rows = await api.db.select().from(auditEvents).where(eq(auditEvents.organizationId, organizationId));
  return rows.map((row) => row.target).sort();
}

describe("the retention purge", () => {
  it("deletes events older than each organization's retention and keeps the rest", async () => {
    const now = new Date("2030-06-01T12:00:00Z");
    const monthly = await organizationWithEvents(30, now, [1, 29, 31, 400]);
    const yearly = await organizationWithEvents(365, now, [1, 31, 364, 366]);
    expect(await purgeExpiredAuditEvents(api.db, now)).toBeGreaterThanOrEqual(3);
    expect(await targetsOf(monthly)).toEqual(["1 days old", "29 days old"]);
    expect(await targetsOf(yearly)).toEqual(["1 days old", "31 days old", "364 days old"]);
  });

  it("runs at start with the injected clock, and the timer stops cleanly", async () => {
    const now = new Date("2031-01-01T00:00:00Z");
    const organizationId = await organizationWithEvents(30, now, [2, 45]);
    const retention = startAuditRetention({ db: api.db, now: () => now, intervalMs: 60_000 });
    await retention.stop();
    expect(await targetsOf(organizationId)).toEqual(["2 days old"]);
  });
});
