import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { ensureRoles, seedDemoData } from "../db/seed";
import { environments, resourceHistory, resourceLogs, resources } from "../db/schema";
import { openTestDb } from "../db/test-db";
import { ephemeralSecretCipher } from "../secrets/cipher";

let database: Awaited<ReturnType<typeof openTestDb>>;
beforeAll(async () => {
  database = await openTestDb();
});
afterAll(() => database.close());

it("seeds Acme's production environment with deployed services", async () => {
  const secrets = ephemeralSecretCipher();
  await ensureRoles(database.db);
  expect(await seedDemoData(database.db, { secrets })).toBe(true);
  const [production] = await database.db
    .select()
    .from(environments)
    .where(eq(environments.name, "production"));
  if (!production) throw new Error("no production environment");
  const services = await database.db
    .select()
    .from(resources)
    .where(eq(resources.environmentId, production.id));
  expect(services.map((service) => [service.serviceType, service.name]).sort()).toEqual([
    ["application", "api"],
    ["application", "web"],
    ["cache", "session-cache"],
    ["database", "orders-db"],
    ["network", "main-vpc"],
    ["queue", "jobs-queue"],
  ]);
  for (const service of services) {
    expect(service.stage).toBe("STAGE_COMPLETED");
    expect(service.deployedAt).not.toBeNull();
    expect(service.pods.every((pod) => pod.status === "Running")).toBe(true);
    const history = await database.db
      .select()
      .from(resourceHistory)
      .where(eq(resourceHistory.resourceId, service.id));
    expect(history.map((entry) => [entry.action, entry.outcome])).toEqual([["Create", "STAGE_COMPLETED"]]);
    const logs = await database.db
      .select({ id: resourceLogs.id })
      .from(resourceLogs)
      .where(eq(resourceLogs.resourceId, service.id));
    expect(logs.length).toBeGreaterThan(0);
  }
  const database_ = services.find((service) => service.serviceType === "database");
  expect(database_?.sealedAttributes).toBeTruthy();
  expect(database_?.monthlyCost).toBeGreaterThan(0);
});
