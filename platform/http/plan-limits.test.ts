import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiTokenPaths } from "#contract/api-tokens";
import { environmentPaths } from "#contract/environments";
import { fastbootPaths } from "#contract/fastboot";
import { invitationPaths } from "#contract/invitations";
import { defaultServiceConfigs } from "#contract/service-configs";
import { servicePaths } from "#contract/services";
import { plans } from "#contract/users";
import { eq } from "drizzle-orm";
import { environments, memberships, organizations, resources } from "../db/schema";
import { ensureRoles } from "../db/roles";
import { ephemeralSecretCipher } from "../lib/cipher";
import { planOf } from "../plans/limits";
import { openTestDb } from "../testing/db";
import { seedDemoData } from "../seed/demo-data";
import { fakeDriver } from "../testing/driver";
import { openTestApi, uniqueName, type TestApi, type TestMember } from "../testing/http-harness";

/** Issue 25: the organization page states the plan's limits; the platform keeps to them on every path. */
let api: TestApi;
beforeAll(async () => {
  api = await openTestApi({}, { driver: fakeDriver() });
});
afterAll(() => api.close());

const t = (member: TestMember) => member.organization.tenantId;

async function refusal(response: Response) {
  expect(response.status).toBe(409);
  return ((await response.json()) as { message: string }).message;
}

describe("the Free plan's limits", () => {
  it("refuses a fourth environment, created, cloned or fastbooted, naming the limit", async () => {
    const owner = await api.createMember({ role: "admin" });
    const environments = [];
    for (const name of ["production", "staging", "dev"])
      environments.push(await api.createEnvironment(t(owner), name));
    const words =
      "The Free plan allows 3 environments; this organization has 3. Upgrade the plan or delete an environment.";
    const call = (method: string, path: string, json: unknown) =>
      api.call(method, path, { token: owner.user.token, json });

    expect(
      await refusal(
        await call("POST", environmentPaths.list(t(owner)), {
          name: "qa",
          cloudProvider: "AWS",
          region: "us-east-1",
        }),
      ),
    ).toBe(words);
    expect(
      await refusal(
        await call("POST", environmentPaths.clone(t(owner), environments[0]?.id ?? ""), { name: "qa" }),
      ),
    ).toBe(words);
    expect(
      await refusal(
        await call("POST", fastbootPaths.create(t(owner)), {
          stack: "web-postgres",
          name: "qa",
          region: "us-east-1",
        }),
      ),
    ).toBe(words);
    expect(await api.environmentsOf(t(owner))).toHaveLength(3);
  });

  it("refuses a service past the plan's services per environment", async () => {
    const owner = await api.createMember({ role: "admin" });
    const staging = await api.createEnvironment(t(owner), "staging");
    await api.db.insert(resources).values(
      Array.from({ length: 20 }, (_, index) => ({
        environmentId: staging.id,
        name: `svc-${index}`,
        serviceType: "queue",
        stage: "STAGE_DRAFT",
        config: {},
        settings: {},
      })),
    );
    const response = await api.call("POST", servicePaths.list(t(owner), staging.id), {
      token: owner.user.token,
      json: {
        serviceType: "database",
        name: "orders",
        config: defaultServiceConfigs.database,
        launch: false,
      },
    });
    expect(await refusal(response)).toBe(
      "The Free plan allows 20 services per environment; staging has 20. Upgrade the plan or delete a service.",
    );
  });

  it("refuses invitations past the plan's members, counting the invitations still open", async () => {
    const owner = await api.createMember({ role: "admin" });
    const invite = (emails: string[]) =>
      api.call("POST", invitationPaths.list(t(owner)), {
        token: owner.user.token,
        json: { emails, grants: [{ role: "developer", environmentIds: null }] },
      });
    const nine = Array.from({ length: 9 }, () => `${uniqueName("colleague")}@example.test`);
    expect((await invite(nine)).status).toBe(201);
    expect(await refusal(await invite([`${uniqueName("one-more")}@example.test`]))).toBe(
      "The Free plan allows 10 members; this organization has 10 with its open invitations. Upgrade the plan, " +
        "or cancel an invitation or remove a member.",
    );
  });
});

describe("service accounts and the plan", () => {
  const createServiceAccount = (owner: TestMember, name: string) =>
    api.call("POST", apiTokenPaths.serviceAccounts(t(owner)), {
      token: owner.user.token,
      json: { name, roles: [{ role: "developer" }] },
    });
  const invite = (owner: TestMember, count: number) =>
    api.call("POST", invitationPaths.list(t(owner)), {
      token: owner.user.token,
      json: {
        emails: Array.from({ length: count }, () => `${uniqueName("colleague")}@example.test`),
        grants: [{ role: "developer", environmentIds: null }],
      },
    });

  it("do not take a member's seat: an organization at its member limit still creates one, and they never block an invitation", async () => {
    const owner = await api.createMember({ role: "admin" });
    for (const name of ["deployer", "backup"])
      expect((await createServiceAccount(owner, name)).status).toBe(201);
    // The owner and nine invitations fill the Free plan's ten seats; the two service accounts take none.
    expect((await invite(owner, 9)).status).toBe(201);
    expect((await createServiceAccount(owner, "reporter")).status).toBe(201);
    expect(await refusal(await invite(owner, 1))).toBe(
      "The Free plan allows 10 members; this organization has 10 with its open invitations. Upgrade the plan, " +
        "or cancel an invitation or remove a member.",
    );
  });

  it("are limited by the plan's own count, refused in words", async () => {
    const owner = await api.createMember({ role: "admin" });
    const allowed = plans.FREE.limits.serviceAccounts;
    for (let index = 0; index < allowed; index += 1)
      expect((await createServiceAccount(owner, `robot ${index}`)).status).toBe(201);
    expect(await refusal(await createServiceAccount(owner, "one more"))).toBe(
      `The Free plan allows ${allowed} service accounts; this organization has ${allowed}. ` +
        "Upgrade the plan or delete a service account.",
    );
  });
});

describe("the demo data", () => {
  it("puts Acme on a plan that allows what it has: environments, members and services per environment", async () => {
    const database = await openTestDb();
    try {
      const { db } = database;
      await ensureRoles(db);
      await seedDemoData(db, { secrets: ephemeralSecretCipher() });
      const [acme] = await db.select().from(organizations).where(eq(organizations.id, "org_acme"));
      if (!acme) throw new Error("Acme was not seeded");
      const { limits, name } = await planOf(db, acme.id);
      const own = await db.select().from(environments).where(eq(environments.tenantId, acme.tenantId));
      const members = await db.select().from(memberships).where(eq(memberships.organizationId, acme.id));
      expect(name).not.toBe("Free");
      expect(own.length).toBeLessThanOrEqual(limits.environments);
      expect(members.length).toBeLessThanOrEqual(limits.members);
      for (const environment of own) {
        const services = await db.select().from(resources).where(eq(resources.environmentId, environment.id));
        expect(services.length).toBeLessThanOrEqual(limits.servicesPerEnvironment);
      }
    } finally {
      await database.close();
    }
  });
});
