import { randomUUID } from "node:crypto";
import { count, eq } from "drizzle-orm";
import type { Hono } from "hono";
import type { RoleName } from "#contract/permissions";
import {
  DEFAULT_DRIFT_CHECK_INTERVAL_SECONDS,
  defaultMailConfig,
  defaultTerraformConfig,
  type EngineConfig,
  type PlatformConfig,
} from "../lib/config";
import type { Database } from "../db/index";
import { ensureRoles } from "../db/roles";
import {
  engineJobs,
  environments,
  environmentVariables,
  featureFlags,
  memberships,
  oidcPayloads,
  organizations,
  resourceHistory,
  resources,
  serverlessUploads,
  users,
} from "../db/schema";
import { openTestDb } from "./db";
import type { CloudDriver } from "../cloud/driver";
import { createOperations } from "../operations/operations";
import { ephemeralSecretCipher } from "../lib/cipher";
import { createApiApp } from "../http/app";
import { addMember as addMemberTo, type GrantInput } from "../team/members";
import { createTestTokenIssuer, type TestTokenIssuer } from "./tokens";
import { testOutboundAllowList } from "./egress";
import { insertConnection } from "./notification-connections";
import { MOTO_ACCOUNT_ID, motoCredentials } from "../../tests/setup/moto-server";

/**
 * Steps take no time and the runner is not started: tests run due jobs with `engine.runner.runUntilIdle()` (or
 * start the runner to test polling). Failure injection is on, so a clone named `...fail-<step>` fails there.
 */
export const testEngineConfig: EngineConfig = { timeScale: 0, pollIntervalMs: 10, failureInjection: true };

export function testPlatformConfig(overrides: Partial<PlatformConfig> = {}): PlatformConfig {
  return {
    port: 0,
    publicUrl: "http://platform.test",
    issuer: "http://platform.test/",
    audience: "http://platform.test/api",
    dataDir: "memory",
    appUrl: "http://localhost:3000",
    clientId: "cloud-console",
    clientSecret: "test-client-secret-0123456789",
    tenantApprovalRequired: false,
    seedDemoData: false,
    seedContainerHost: false,
    accessTokenTtlSeconds: 3600,
    terraform: defaultTerraformConfig,
    engine: testEngineConfig,
    driftCheckIntervalSeconds: DEFAULT_DRIFT_CHECK_INTERVAL_SECONDS,
    mail: defaultMailConfig,
    outboundAllow: testOutboundAllowList,
    containerSockets: [],
    ...overrides,
  };
}

export type TestUser = { id: string; email: string; token: string; grantId: string };
export type TestOrganization = { organizationId: string; tenantId: string; name: string };
export type TestMember = { user: TestUser; organization: TestOrganization };

type CallOptions = {
  token?: string;
  /** Sent as JSON. */
  json?: unknown;
  /** Sent as is, for bodies that are not valid JSON. */
  rawBody?: string;
  headers?: Record<string, string>;
};

/** Unique within a test database, valid as organization and environment names. */
export function uniqueName(prefix: string): string {
  return `${prefix}-${randomUUID().slice(0, 8)}`;
}

/** The API over a fresh test database (PGlite, or PostgreSQL under TEST_DATABASE_URL) with typed data factories. */
export async function openTestApi(
  configOverrides: Partial<PlatformConfig> = {},
  {
    driver,
    provisioners,
    now,
  }: {
    driver?: CloudDriver;
    provisioners?: Parameters<typeof createOperations>[0]["provisioners"];
    /** The engine's clock (and the API's, which asks the engine), for tests that move time. */
    now?: () => Date;
  } = {},
) {
  const database = await openTestDb();
  const db: Database = database.db;
  await ensureRoles(db);
  const config = testPlatformConfig(configOverrides);
  const tokens: TestTokenIssuer = await createTestTokenIssuer({
    issuer: config.issuer,
    audience: config.audience,
  });
  const secrets = ephemeralSecretCipher();
  const engine = createOperations({ db, config, secrets, driver, provisioners, now });
  const app: Hono = createApiApp({ db, config, jwks: tokens.jwks, secrets, engine });

  function call(method: string, path: string, { token, json, rawBody, headers = {} }: CallOptions = {}) {
    const requestHeaders: Record<string, string> = { Accept: "application/json", ...headers };
    if (token) requestHeaders.Authorization = `Bearer ${token}`;
    let body: string | undefined = rawBody;
    if (json !== undefined) body = JSON.stringify(json);
    if (body !== undefined) requestHeaders["Content-Type"] = "application/json";
    return app.request(`/api${path}`, { method, headers: requestHeaders, body });
  }

  async function createUser(): Promise<TestUser> {
    const id = `user_${randomUUID()}`;
    const email = `${id}@example.test`;
    // The API never checks passwords; the identity provider does.
    await db.insert(users).values({ id, email, name: `Test ${id}`, passwordHash: "unusable" });
    const grantId = await createGrant(id);
    return { id, email, grantId, token: await tokens.sign({ sub: id, grantId }) };
  }

  /** A sign-in as the identity provider stores it: the grant its access tokens name. */
  async function createGrant(accountId: string): Promise<string> {
    const grantId = randomUUID();
    await db.insert(oidcPayloads).values({
      model: "Grant",
      id: grantId,
      payload: { accountId, clientId: config.clientId, kind: "Grant", jti: grantId },
      expiresAt: new Date(Date.now() + 24 * 60 * 60 * 1000),
    });
    return grantId;
  }

  async function createOrganization({
    approved = true,
  }: { approved?: boolean } = {}): Promise<TestOrganization> {
    const name = uniqueName("org");
    const [organization] = await db
      .insert(organizations)
      .values({ id: `org_${randomUUID().slice(0, 16)}`, name, displayName: `Organization ${name}`, approved })
      .returning({
        organizationId: organizations.id,
        tenantId: organizations.tenantId,
        name: organizations.name,
      });
    if (!organization) throw new Error("organization was not created");
    return organization;
  }

  /** Makes the user a member holding `role` on the organization, or the given grants. */
  async function addMember(userId: string, organizationId: string, role: RoleName | GrantInput[]) {
    await addMemberTo(db, { userId, organizationId, grants: typeof role === "string" ? [{ role }] : role });
  }

  /** A new user with `role` in a new organization. */
  async function createMember({
    role = "admin",
    approved = true,
  }: { role?: RoleName; approved?: boolean } = {}): Promise<TestMember> {
    const user = await createUser();
    const organization = await createOrganization({ approved });
    await addMember(user.id, organization.organizationId, role);
    return { user, organization };
  }

  async function createEnvironment(tenantId: string, name = uniqueName("env")) {
    const [environment] = await db.insert(environments).values({ tenantId, name }).returning();
    if (!environment) throw new Error("environment was not created");
    return environment;
  }

  /** An environment deployed into moto's account: an AWS connection with moto's keys, in `region`. */
  async function createAwsEnvironment(member: TestMember, region: string) {
    const connection = await insertConnection(db, secrets, {
      organizationId: member.organization.organizationId,
      kind: "AWS",
      method: "keys",
      fields: { ACCOUNT_ID: MOTO_ACCOUNT_ID, ACCESS_KEY_ID: motoCredentials.accessKeyId, REGION: region },
      secretFields: { SECRET_ACCESS_KEY: motoCredentials.secretAccessKey },
    });
    const [environment] = await db
      .insert(environments)
      .values({
        tenantId: member.organization.tenantId,
        name: uniqueName("env"),
        region,
        cloudConnectionId: connection.id,
      })
      .returning();
    if (!environment) throw new Error("environment was not created");
    return environment;
  }

  async function setFeatureFlag(tenantId: string | null, name: string, enabled: boolean) {
    await db.insert(featureFlags).values({ tenantId, name, enabled });
  }

  /** Row counts of every table the API writes, to prove a rejected request wrote nothing. */
  async function countRows() {
    const [
      [organizationRows],
      [membershipRows],
      [environmentRows],
      [flagRows],
      [variableRows],
      [jobRows],
      [resourceRows],
      [historyRows],
      [uploadRows],
    ] = await Promise.all([
      db.select({ value: count() }).from(organizations),
      db.select({ value: count() }).from(memberships),
      db.select({ value: count() }).from(environments),
      db.select({ value: count() }).from(featureFlags),
      db.select({ value: count() }).from(environmentVariables),
      db.select({ value: count() }).from(engineJobs),
      db.select({ value: count() }).from(resources),
      db.select({ value: count() }).from(resourceHistory),
      db.select({ value: count() }).from(serverlessUploads),
    ]);
    return {
      organizations: organizationRows?.value,
      memberships: membershipRows?.value,
      environments: environmentRows?.value,
      featureFlags: flagRows?.value,
      environmentVariables: variableRows?.value,
      engineJobs: jobRows?.value,
      resources: resourceRows?.value,
      resourceHistory: historyRows?.value,
      serverlessUploads: uploadRows?.value,
    };
  }

  async function environmentsOf(tenantId: string) {
    return db.select().from(environments).where(eq(environments.tenantId, tenantId));
  }

  return {
    app,
    db,
    config,
    secrets,
    engine,
    tokens,
    call,
    createUser,
    createGrant,
    createOrganization,
    addMember,
    createMember,
    createEnvironment,
    createAwsEnvironment,
    setFeatureFlag,
    countRows,
    environmentsOf,
    close: async () => {
      await engine.runner.stop();
      await database.close();
    },
  };
}

export type TestApi = Awaited<ReturnType<typeof openTestApi>>;
