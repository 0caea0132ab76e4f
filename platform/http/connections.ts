import { randomUUID } from "node:crypto";
import { and, asc, eq } from "drizzle-orm";
import { Hono, type Context } from "hono";
import {
  AWS_ROLE_ACCESS_NOT_SET_UP,
  awsRoleSetupSchema,
  branchListSchema,
  CONNECTION_CHECK_FAILED,
  connectionCheckListSchema,
  connectionCheckResponseSchema,
  connectionKindDefinitions,
  connectionListQuerySchema,
  connectionListSchema,
  connectionResponseSchema,
  createConnectionSchema,
  methodOf,
  defaultNotificationRules,
  repositoryListSchema,
  repositoryQuerySchema,
  tagListSchema,
  updateConnectionSchema,
  type ConnectionKind,
} from "#contract/connections";
import { permissionsFor } from "#contract/permissions";
import type { PlatformConfig } from "../lib/config";
import { awsRoleSetup, AwsRoleSetupUnavailableError } from "../connections/aws-role-setup";
import { ProviderUnreachableError } from "../connections/http";
import { providers } from "../connections/provider-registry";
import {
  ProviderRequestError,
  type CheckResult,
  type Credentials,
  type ProviderContext,
} from "../connections/providers";
import {
  checksOf,
  credentialsOf,
  describeConnections,
  findConnection,
  mergeSecrets,
  pointsElsewhere,
  recordCheck,
  sealSecrets,
  statusAfter,
  splitFields,
  unsealSecrets,
  usageOf,
  type ConnectionRow,
} from "../connections/records";
import type { Database } from "../db/index";
import { connections, organizations } from "../db/schema";
import type { SecretCipher } from "../lib/cipher";
import { currentUser } from "./auth";
import { HttpError } from "./errors";
import { conflict, conflictOn, invalidFields, notFound } from "../lib/errors";
import { flagsOfTenant } from "../feature-flags/flags";
import { permit } from "./permissions";
import { currentOrganization, type OrganizationEnv } from "./tenancy";
import { readJsonBody, readQuery, sendJson } from "./validation";
import { documentRoutes } from "./documented";

type Dependencies = {
  db: Database;
  config: Pick<PlatformConfig, "appUrl" | "publicUrl" | "terraform">;
  secrets: SecretCipher;
  now?: () => Date;
};

export const CONNECTION_NOT_FOUND = "Connection not found";

/** "Enter the API key again: …" ("Access token" reads "access token" in a sentence; "API key" stays). */
function reenterMessage(label: string): string {
  const inSentence = /^[A-Z][a-z]/.test(label) ? label[0]?.toLowerCase() + label.slice(1) : label;
  return `Enter the ${inSentence} again: the connection now points at a new address.`;
}

/** Connections under /v2/organizations/:tenantId (issue 13): saved verified, sealed, checked again on demand. */
export function connectionRoutes({ db, config, secrets, now = () => new Date() }: Dependencies) {
  const routes = new Hono<OrganizationEnv>();

  async function connectionOf(c: Context<OrganizationEnv>): Promise<ConnectionRow> {
    const id = c.req.param("connectionId") ?? "";
    const row = /^[0-9a-f-]{36}$/i.test(id)
      ? await findConnection(db, currentOrganization(c).organizationId, id)
      : undefined;
    if (!row) throw notFound(CONNECTION_NOT_FOUND);
    return row;
  }

  /** Secret hints (last four characters) only for those who manage connections. */
  function describe(c: Context<OrganizationEnv>, rows: ConnectionRow[]) {
    const { organizationId, grants } = currentOrganization(c);
    const showHints = permissionsFor(grants, undefined).has("connections.manage");
    return describeConnections(db, organizationId, rows, { showHints });
  }

  async function describeOne(c: Context<OrganizationEnv>, row: ConnectionRow) {
    const [connection] = await describe(c, [row]);
    if (!connection) throw new Error("the connection was not described");
    return connection;
  }

  async function providerContext(c: Context<OrganizationEnv>): Promise<ProviderContext> {
    const { organizationId, displayName } = currentOrganization(c);
    const [organization] = await db
      .select({ awsExternalId: organizations.awsExternalId })
      .from(organizations)
      .where(eq(organizations.id, organizationId));
    return {
      awsEndpoint: config.terraform.awsEndpoint,
      awsExternalId: organization?.awsExternalId ?? "",
      organizationName: displayName,
      appUrl: config.appUrl,
      connection: async (id) => {
        const row = /^[0-9a-f-]{36}$/i.test(id) ? await findConnection(db, organizationId, id) : undefined;
        return row ? credentialsOf(secrets, row) : undefined;
      },
    };
  }

  function providerOf(kind: ConnectionKind) {
    const provider = providers[kind];
    if (!provider) throw new Error(`no provider for ${kind}`);
    return provider;
  }

  async function check(c: Context<OrganizationEnv>, credentials: Credentials): Promise<CheckResult> {
    return providerOf(credentials.kind).check(credentials, await providerContext(c));
  }

  /** A kind behind a feature flag that is off for the organization cannot be connected. */
  async function requireOffered(c: Context<OrganizationEnv>, kind: ConnectionKind) {
    const { flag, label } = connectionKindDefinitions[kind];
    if (!flag) return;
    const flags = await flagsOfTenant(db, currentOrganization(c).tenantId);
    if (!flags[flag])
      throw invalidFields({ kind: [`${label} connections are not enabled for this organization.`] });
  }

  /** Connections a field refers to must be of the right kind, in this organization. */
  async function requireReferences(c: Context<OrganizationEnv>, fields: Record<string, string>) {
    const { organizationId } = currentOrganization(c);
    const references = [
      { field: "AWS_CONNECTION_ID", kind: "AWS", label: "an AWS connection" },
      { field: "GITHUB_CONNECTION_ID", kind: "VERSION_CONTROL_TYPE_GITHUB", label: "a GitHub connection" },
    ] as const;
    for (const { field, kind, label } of references) {
      const id = fields[field];
      if (!id) continue;
      const row = await findConnection(db, organizationId, id);
      if (row?.kind !== kind)
        throw invalidFields({ [`fields.${field}`]: [`Choose ${label} of this organization.`] });
    }
  }

  async function requireFreeName(c: Context<OrganizationEnv>, name: string, exceptId?: string) {
    const [taken] = await db
      .select({ id: connections.id })
      .from(connections)
      .where(
        and(
          eq(connections.organizationId, currentOrganization(c).organizationId),
          eq(connections.name, name),
        ),
      );
    if (taken && taken.id !== exceptId)
      throw conflictOn("name", `A connection named ${name} already exists.`);
  }

  /** A save with verification that the provider refused: 422, nothing stored, the field to fix when known. */
  function checkFailed(result: CheckResult): HttpError {
    return new HttpError(422, {
      message: result.message,
      code: CONNECTION_CHECK_FAILED,
      ...(result.field ? { fieldErrors: { [`fields.${result.field}`]: [result.message] } } : {}),
    });
  }

  /** The AWS role flow: the organization's external id and the CloudFormation stack that creates the role. */
  routes.get("/connections/aws/role-setup", permit("connections.manage"), async (c) => {
    const { awsExternalId } = await providerContext(c);
    try {
      const { organizationId } = currentOrganization(c);
      return sendJson(
        c,
        awsRoleSetupSchema,
        await awsRoleSetup(config, { externalId: awsExternalId, organizationId }),
      );
    } catch (error) {
      if (error instanceof AwsRoleSetupUnavailableError)
        throw new HttpError(503, { message: error.message, code: AWS_ROLE_ACCESS_NOT_SET_UP });
      throw error;
    }
  });

  routes.get("/connections", permit("organization.view"), async (c) => {
    const { category, kind } = readQuery(c, connectionListQuerySchema);
    const rows = await db
      .select()
      .from(connections)
      .where(
        and(
          eq(connections.organizationId, currentOrganization(c).organizationId),
          kind ? eq(connections.kind, kind) : undefined,
        ),
      )
      .orderBy(asc(connections.name));
    const described = await describe(c, rows);
    return sendJson(c, connectionListSchema, {
      connections: category ? described.filter((one) => one.category === category) : described,
    });
  });

  routes.post("/connections", permit("connections.manage"), async (c) => {
    const body = await readJsonBody(c, createConnectionSchema);
    await requireOffered(c, body.kind);
    await requireReferences(c, body.fields);
    await requireFreeName(c, body.name);
    const { plain, secret } = splitFields(body.kind, body.fields);
    const id = randomUUID();
    // The provider is called before anything is written, and outside any transaction.
    const result = body.verify
      ? await check(c, { id, kind: body.kind, method: body.method, fields: plain, secrets: secret })
      : null;
    if (result && !result.ok && body.ifRefused === "refuse") throw checkFailed(result);
    const status = result ? statusAfter(result) : "UNVERIFIED";
    const at = now();
    const created = await db.transaction(async (tx) => {
      const [row] = await tx
        .insert(connections)
        .values({
          id,
          organizationId: currentOrganization(c).organizationId,
          kind: body.kind,
          name: body.name,
          method: body.method,
          fields: plain,
          ...sealSecrets(secrets, id, secret),
          status,
          notifications: body.kind.startsWith("COMMUNICATION_PLATFORM_TYPE_")
            ? defaultNotificationRules
            : null,
          createdBy: currentUser(c).id,
          createdAt: at,
          updatedAt: at,
        })
        .returning();
      if (!row) throw new Error("the connection was not created");
      if (result) await recordCheck(tx, id, result, currentUser(c).id, at);
      return { ...row, status };
    });
    return sendJson(c, connectionResponseSchema, { connection: await describeOne(c, created) }, 201);
  });

  routes.get("/connections/:connectionId", permit("organization.view"), async (c) => {
    return sendJson(c, connectionResponseSchema, { connection: await describeOne(c, await connectionOf(c)) });
  });

  routes.put("/connections/:connectionId", permit("connections.manage"), async (c) => {
    const row = await connectionOf(c);
    const body = await readJsonBody(c, updateConnectionSchema);
    if (body.kind !== row.kind) throw invalidFields({ kind: ["The kind of a connection cannot change."] });
    await requireReferences(c, body.fields);
    await requireFreeName(c, body.name, row.id);
    const { plain, secret: sent } = splitFields(body.kind, body.fields);
    const stored = unsealSecrets(secrets, row);
    const movedAddress = pointsElsewhere(body.kind, body.method, row.fields, plain);
    const { secret, missing, reenter } = mergeSecrets(body.kind, body.method, stored, sent, { movedAddress });
    if (missing.length || reenter.length) {
      const labelOf = (name: string) =>
        methodOf(body.kind, body.method)?.fields.find((field) => field.name === name)?.label ?? name;
      throw invalidFields(
        Object.fromEntries([
          ...missing.map((name) => [`fields.${name}`, [`${labelOf(name)} is a required field`]]),
          ...reenter.map((name) => [`fields.${name}`, [reenterMessage(labelOf(name))]]),
        ]),
      );
    }
    const credentialsChanged =
      body.method !== row.method ||
      JSON.stringify(plain) !== JSON.stringify(row.fields) ||
      JSON.stringify(secret) !== JSON.stringify(stored);
    const result = body.verify
      ? await check(c, { id: row.id, kind: body.kind, method: body.method, fields: plain, secrets: secret })
      : null;
    if (result && !result.ok && body.ifRefused === "refuse") throw checkFailed(result);
    const at = now();
    // Renaming without verifying keeps the status the credentials earned; new credentials start unverified.
    const status = result ? statusAfter(result) : credentialsChanged ? "UNVERIFIED" : row.status;
    const updated = await db.transaction(async (tx) => {
      const [saved] = await tx
        .update(connections)
        .set({
          name: body.name,
          method: body.method,
          fields: plain,
          ...sealSecrets(secrets, row.id, secret),
          status,
          updatedAt: at,
        })
        .where(eq(connections.id, row.id))
        .returning();
      if (!saved) throw notFound(CONNECTION_NOT_FOUND);
      if (result) await recordCheck(tx, row.id, result, currentUser(c).id, at);
      return { ...saved, status };
    });
    return sendJson(c, connectionResponseSchema, { connection: await describeOne(c, updated) });
  });

  routes.delete("/connections/:connectionId", permit("connections.manage"), async (c) => {
    const row = await connectionOf(c);
    const usage = (await usageOf(db, row.organizationId, [row.id])).get(row.id) ?? [];
    if (usage.length) {
      const names = usage.map((use) => `${use.type} ${use.name}`).join(", ");
      throw conflict(`${row.name} is in use by ${names}. Remove those uses first, then delete it.`);
    }
    await db.transaction((tx) => tx.delete(connections).where(eq(connections.id, row.id)));
    return c.body(null, 204);
  });

  /** 'Test connection': checks the stored credentials again and records when and with what result. */
  routes.post("/connections/:connectionId/checks", permit("connections.manage"), async (c) => {
    const row = await connectionOf(c);
    const result = await check(c, credentialsOf(secrets, row));
    const at = now();
    await db.transaction((tx) => recordCheck(tx, row.id, result, currentUser(c).id, at));
    const [checked] = await checksOf(db, row.id, 1);
    if (!checked) throw new Error("the check was not recorded");
    const connection = await describeOne(c, { ...row, status: result.ok ? "VERIFIED" : "FAILING" });
    return sendJson(c, connectionCheckResponseSchema, { connection, check: checked });
  });

  routes.get("/connections/:connectionId/checks", permit("organization.view"), async (c) => {
    const row = await connectionOf(c);
    return sendJson(c, connectionCheckListSchema, { checks: await checksOf(db, row.id) });
  });

  /** Runs a provider's listing; its refusal or an unreachable host is a 502 with the provider's answer. */
  async function listing<T>(
    c: Context<OrganizationEnv>,
    what: "repositories" | "tags" | "branches",
    run: (credentials: Credentials, context: ProviderContext) => Promise<T> | undefined,
  ): Promise<T> {
    const row = await connectionOf(c);
    const credentials = credentialsOf(secrets, row);
    const pending = run(credentials, await providerContext(c));
    if (!pending) {
      const { label } = connectionKindDefinitions[row.kind as ConnectionKind];
      throw invalidFields({ connectionId: [`${label} connections do not list ${what}.`] });
    }
    try {
      return await pending;
    } catch (error) {
      if (error instanceof ProviderRequestError || error instanceof ProviderUnreachableError) {
        throw new HttpError(502, { message: error.message });
      }
      throw error;
    }
  }

  routes.get("/connections/:connectionId/repositories", permit("organization.view"), async (c) => {
    const repositories = await listing(c, "repositories", (credentials, context) =>
      providerOf(credentials.kind).repositories?.(credentials, context),
    );
    return sendJson(c, repositoryListSchema, { repositories });
  });

  routes.get("/connections/:connectionId/tags", permit("organization.view"), async (c) => {
    const { repository } = readQuery(c, repositoryQuerySchema);
    const tags = await listing(c, "tags", (credentials, context) =>
      providerOf(credentials.kind).tags?.(credentials, context, repository),
    );
    return sendJson(c, tagListSchema, { tags });
  });

  routes.get("/connections/:connectionId/branches", permit("organization.view"), async (c) => {
    const { repository } = readQuery(c, repositoryQuerySchema);
    const branches = await listing(c, "branches", (credentials, context) =>
      providerOf(credentials.kind).branches?.(credentials, context, repository),
    );
    return sendJson(c, branchListSchema, { branches });
  });

  documentRoutes(routes, {
    "GET /connections/aws/role-setup": { responses: { 200: awsRoleSetupSchema } },
    "GET /connections": { query: connectionListQuerySchema, responses: { 200: connectionListSchema } },
    "POST /connections": { body: createConnectionSchema, responses: { 201: connectionResponseSchema } },
    "GET /connections/:connectionId": { responses: { 200: connectionResponseSchema } },
    "PUT /connections/:connectionId": {
      body: updateConnectionSchema,
      responses: { 200: connectionResponseSchema },
    },
    "DELETE /connections/:connectionId": { responses: { 204: null } },
    "POST /connections/:connectionId/checks": { responses: { 200: connectionCheckResponseSchema } },
    "GET /connections/:connectionId/checks": { responses: { 200: connectionCheckListSchema } },
    "GET /connections/:connectionId/repositories": { responses: { 200: repositoryListSchema } },
    "GET /connections/:connectionId/tags": {
      query: repositoryQuerySchema,
      responses: { 200: tagListSchema },
    },
    "GET /connections/:connectionId/branches": {
      query: repositoryQuerySchema,
      responses: { 200: branchListSchema },
    },
  });
  return routes;
}
