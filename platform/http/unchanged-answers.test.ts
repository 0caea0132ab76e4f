import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resourceResponseSchema, servicePaths, type Resource } from "#contract/services";
import { defaultServiceConfigs } from "#contract/service-configs";
import { effectivePermissionsSchema } from "#contract/permissions";
import { environmentPaths } from "#contract/environments";
import { userPaths } from "#contract/users";
import { engineJobs, environments, memberships, resourceHistory, resources, roleGrants } from "../db/schema";
import { fakeDriver } from "../testing/driver";
import { openTestApi, uniqueName, type TestMember } from "../testing/http-harness";

// Decision 065: a poll of an unchanged environment's services is answered 304 after the caller's checks and one
// look-up; every kind of write that changes what the list or a service's details (the service, its units) show
// answers anew.
const api = await openTestApi({}, { driver: fakeDriver() });
afterAll(() => api.close());

let member: TestMember;
let tenantId: string;
let environmentId: string;
let service: Resource;
beforeAll(async () => {
  member = await api.createMember({ role: "admin" });
  tenantId = member.organization.tenantId;
  environmentId = (await api.createEnvironment(tenantId)).id;
  service = await create();
  await api.engine.runner.runUntilIdle();
});

async function create(environment = environmentId): Promise<Resource> {
  const response = await api.call("POST", servicePaths.list(tenantId, environment), {
    token: member.user.token,
    json: {
      serviceType: "database",
      name: uniqueName("db"),
      config: defaultServiceConfigs.database,
      launch: true,
    },
  });
  expect(response.status).toBe(201);
  return resourceResponseSchema.parse(await response.json()).resource;
}

const listPath = () => servicePaths.list(tenantId, environmentId, { page: 1, pageSize: 50 });
const onePath = () => servicePaths.one(tenantId, environmentId, service.id);
/** What a service's details page polls: the service and, on its overview, its units. */
const detailsPaths = () => [onePath(), servicePaths.units(tenantId, environmentId, service.id)];
/** What every page of the environment asks for: the environment with its services' totals. */
const environmentPath = () => environmentPaths.one(tenantId, environmentId);
/** What the environment's pages ask for while a clone of it runs, every few seconds. */
const cloneStatePath = () => environmentPaths.cloneState(tenantId, environmentId);

/** A GET as the app makes it: with the ETag of the answer it holds, if any. */
function poll(path: string, etag?: string | null, token = member.user.token) {
  return api.call("GET", path, { token, headers: etag ? { "If-None-Match": etag } : {} });
}

/** The ETag of a fresh answer, checked to be answered 304 while nothing changes. */
async function currentTag(path: string): Promise<string> {
  const fresh = await poll(path);
  expect(fresh.status).toBe(200);
  const etag = fresh.headers.get("ETag");
  expect(etag).toBeTruthy();
  return etag ?? "";
}

async function expectUnchanged(path: string, etag: string) {
  const answer = await poll(path, etag);
  expect(answer.status).toBe(304);
  expect(await answer.text()).toBe("");
  expect(answer.headers.get("ETag")).toBe(etag);
}

async function expectChanged(path: string, etag: string) {
  const answer = await poll(path, etag);
  expect(answer.status).toBe(200);
  expect(answer.headers.get("ETag")).not.toBe(etag);
  await answer.json();
}

describe("a poll of an unchanged environment", () => {
  it("is answered 304 with no body, for the list, a service, its units, the environment and its cloning", async () => {
    for (const path of [listPath(), ...detailsPaths(), environmentPath(), cloneStatePath()]) {
      const etag = await currentTag(path);
      await expectUnchanged(path, etag);
      await expectUnchanged(path, etag);
    }
  });

  it("answers anew whatever the ETag it is sent when it does not match", async () => {
    const answer = await poll(listPath(), '"something else"');
    expect(answer.status).toBe(200);
  });
});

describe("each kind of change answers anew", () => {
  const changes: [string, () => Promise<unknown>][] = [
    ["a service created through the API", () => create()],
    [
      "a service's row written (a deployment's stage, its configuration)",
      () =>
        api.db
          .update(resources)
          .set({ name: uniqueName("renamed") })
          .where(eq(resources.id, service.id)),
    ],
    [
      "a job of the environment moving on (a deployment's progress)",
      () =>
        api.db
          .update(engineJobs)
          .set({ details: uniqueName("progress") })
          .where(eq(engineJobs.environmentId, environmentId)),
    ],
    [
      "a line of a service's history",
      () =>
        api.db
          .update(resourceHistory)
          .set({ message: uniqueName("why") })
          .where(eq(resourceHistory.resourceId, service.id)),
    ],
    [
      "the environment itself (its deletion, its cloning)",
      () =>
        api.db
          .update(environments)
          .set({ deletionStage: "STAGE_FAILED" })
          .where(eq(environments.id, environmentId)),
    ],
    [
      "a service deleted",
      async () => {
        const doomed = await create();
        await api.engine.runner.runUntilIdle();
        const path = servicePaths.one(tenantId, environmentId, doomed.id);
        const etag = await currentTag(listPath());
        await api.db.delete(resources).where(eq(resources.id, doomed.id));
        await expectChanged(listPath(), etag);
        expect((await poll(path)).status).toBe(404);
      },
    ],
  ];

  it.each(changes)("%s", async (_kind, change) => {
    const paths = [listPath(), ...detailsPaths(), environmentPath(), cloneStatePath()];
    const tags = await Promise.all(paths.map(currentTag));
    await change();
    for (const [index, path] of paths.entries()) await expectChanged(path, tags[index] ?? "");
  });

  it("a write to another environment leaves this one's answers unchanged", async () => {
    const etag = await currentTag(listPath());
    await create((await api.createEnvironment(tenantId)).id);
    await expectUnchanged(listPath(), etag);
  });
});

describe("the caller is checked before any 304", () => {
  it("a removed member is refused at the next poll", async () => {
    const viewer = await api.createUser();
    await api.addMember(viewer.id, member.organization.organizationId, "read-only");
    const paths = [listPath(), ...detailsPaths(), environmentPath(), cloneStatePath()];
    const tags = await Promise.all(paths.map((path) => poll(path, null, viewer.token)));
    expect(tags.map((fresh) => fresh.status)).toEqual([200, 200, 200, 200, 200]);

    await api.db.delete(memberships).where(eq(memberships.userId, viewer.id));
    for (const [index, path] of paths.entries()) {
      expect((await poll(path, tags[index]?.headers.get("ETag"), viewer.token)).status).toBe(403);
    }
  });

  it("a deleted environment answers 404 at the next poll, whatever ETag is held", async () => {
    const doomedEnvironment = (await api.createEnvironment(tenantId)).id;
    const doomed = await create(doomedEnvironment);
    await api.engine.runner.runUntilIdle();
    const paths = [
      servicePaths.list(tenantId, doomedEnvironment, { page: 1, pageSize: 50 }),
      servicePaths.one(tenantId, doomedEnvironment, doomed.id),
      servicePaths.units(tenantId, doomedEnvironment, doomed.id),
      environmentPaths.one(tenantId, doomedEnvironment),
      environmentPaths.cloneState(tenantId, doomedEnvironment),
    ];
    const tags = await Promise.all(paths.map(currentTag));

    await api.db.delete(environments).where(eq(environments.id, doomedEnvironment));
    for (const [index, path] of paths.entries()) expect((await poll(path, tags[index])).status).toBe(404);
  });

  it("a narrowed grant shows at the next request: the permissions are never answered 304", async () => {
    const developer = await api.createUser();
    const { organizationId } = member.organization;
    await api.addMember(developer.id, organizationId, "developer");
    const paths = [listPath(), ...detailsPaths(), environmentPath(), cloneStatePath()];
    const tags = await Promise.all(paths.map((path) => poll(path, null, developer.token)));
    const before = await poll(userPaths.permissions(tenantId), null, developer.token);
    expect(effectivePermissionsSchema.parse(await before.json()).organization).toContain("services.deploy");

    await api.db
      .update(roleGrants)
      .set({ role: "read-only" })
      .where(and(eq(roleGrants.userId, developer.id), eq(roleGrants.organizationId, organizationId)));

    const after = await poll(userPaths.permissions(tenantId), before.headers.get("ETag"), developer.token);
    expect(after.status).toBe(200);
    expect(effectivePermissionsSchema.parse(await after.json()).organization).not.toContain(
      "services.deploy",
    );
    // What the services show is the same for every member (every member views them): still unchanged.
    for (const [index, path] of paths.entries()) {
      expect((await poll(path, tags[index]?.headers.get("ETag"), developer.token)).status).toBe(304);
    }
  });

  it("another tenant's member with this environment's ETag is refused, under either tenant", async () => {
    const etag = await currentTag(listPath());
    const stranger = await api.createMember({ role: "admin" });
    expect((await poll(listPath(), etag, stranger.user.token)).status).toBe(403);
    const underOwnTenant = servicePaths.list(stranger.organization.tenantId, environmentId, {
      page: 1,
      pageSize: 50,
    });
    expect((await poll(underOwnTenant, etag, stranger.user.token)).status).toBe(404);
  });
});
