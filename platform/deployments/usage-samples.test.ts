import { eq } from "drizzle-orm";
import { afterAll, expect, it, vi } from "vitest";
import { defaultServiceConfigs } from "#contract/service-configs";
import { defaultServiceSettings } from "#contract/services";
import { environments, resources, resourceUsageSamples } from "../db/schema";
import { setContainerSockets } from "../lib/container-sockets";
import { openTestApi, uniqueName } from "../testing/http-harness";
import { insertConnection } from "../testing/notification-connections";
import { createUsageSampling } from "./usage-samples";

/*
 * The usage samples when the engine cannot be asked (the samples themselves are taken from a real engine in
 * platform/http/containers-operations.engine.test.ts): nothing is stored, the operator reads it once.
 */

const api = await openTestApi();
afterAll(() => api.close());

it("stores no sample while a host's engine cannot be asked, and says so once until it answers", async () => {
  const member = await api.createMember();
  const socket = "/nonexistent/usage-samples/podman.sock";
  setContainerSockets([socket]);
  const connection = await insertConnection(api.db, api.secrets, {
    organizationId: member.organization.organizationId,
    kind: "CONTAINER_HOST",
    method: "docker-host",
    fields: { DOCKER_HOST: `unix://${socket}` },
  });
  const [environment] = await api.db
    .insert(environments)
    .values({
      tenantId: member.organization.tenantId,
      name: uniqueName("env"),
      cloudProvider: "CONTAINERS",
      region: "local",
      cloudConnectionId: connection.id,
    })
    .returning();
  if (!environment) throw new Error("the environment was not stored");
  const [service] = await api.db
    .insert(resources)
    .values({
      environmentId: environment.id,
      name: "web",
      serviceType: "application",
      stage: "STAGE_COMPLETED",
      config: defaultServiceConfigs.application,
      settings: defaultServiceSettings,
      deployedAt: new Date(),
    })
    .returning();
  if (!service) throw new Error("the service was not stored");

  const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
  let clock = new Date("2031-06-01T08:00:00.000Z");
  const sampling = createUsageSampling({ db: api.db, secrets: api.secrets, now: () => clock });
  expect(await sampling.runDue()).toBe(0);
  clock = new Date(clock.getTime() + 60_000);
  expect(await sampling.runDue()).toBe(0);
  expect(warn).toHaveBeenCalledTimes(1);
  expect(warn.mock.calls[0]?.[0]).toMatch(
    new RegExp(`^usage samples: unix://${socket} could not be asked \\(.+\\); no samples until it answers$`),
  );
  warn.mockRestore();
  expect(
    await api.db.select().from(resourceUsageSamples).where(eq(resourceUsageSamples.resourceId, service.id)),
  ).toEqual([]);
});
