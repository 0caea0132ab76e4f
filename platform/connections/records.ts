import { and, desc, eq, inArray, or, sql } from "drizzle-orm";
import {
  connectionKindDefinitions,
  connectionPatterns,
  methodOf,
  type ConnectionField,
  type Connection,
  type ConnectionCheck,
  type ConnectionFieldName,
  type ConnectionKind,
  type ConnectionStatus,
  type ConnectionUsage,
  type NotificationRules,
} from "#contract/connections";
import type { Database } from "../db/index";
import { connectionChecks, connections, environments, observabilityProviders, users } from "../db/schema";
import type { SecretCipher } from "../lib/cipher";
import type { CheckResult, Credentials } from "./providers";

/**
 * Connections at rest (issue 13): plain fields as they are, secret fields sealed together as one JSON object
 * bound to the connection's id, so a sealed value copied to another row does not open.
 */

export type ConnectionRow = typeof connections.$inferSelect;

/** Binds a connection's sealed secrets to it (additional authenticated data). */
export const secretsContextOf = (connectionId: string) => `connection:${connectionId}`;

/** Which of a kind's fields (under any of its methods) are secret. */
export function isSecretField(kind: ConnectionKind, name: string): boolean {
  return connectionKindDefinitions[kind].methods.some((method) =>
    method.fields.some((field) => field.name === name && field.secret),
  );
}

/**
 * A field that says where the platform calls with the connection's secrets (an API, registry or site URL). A
 * webhook URL is itself a secret, so it is not one of these: changing it means typing it.
 */
export function isAddressField(field: ConnectionField): boolean {
  return !field.secret && field.pattern === connectionPatterns.httpUrl;
}

/** Splits normalized form values into what is stored as is and what is sealed. */
export function splitFields(kind: ConnectionKind, values: Record<string, string>) {
  const plain: Record<string, string> = {};
  const secret: Record<string, string> = {};
  for (const [name, value] of Object.entries(values)) {
    (isSecretField(kind, name) ? secret : plain)[name] = value;
  }
  return { plain, secret };
}

export function sealSecrets(cipher: SecretCipher, connectionId: string, secret: Record<string, string>) {
  const names = Object.keys(secret);
  return {
    sealedSecrets: names.length
      ? cipher.encrypt(JSON.stringify(secret), secretsContextOf(connectionId))
      : null,
    secretHints: Object.fromEntries(names.map((name) => [name, (secret[name] ?? "").slice(-4)])),
  };
}

export function unsealSecrets(cipher: SecretCipher, row: ConnectionRow): Record<string, string> {
  if (!row.sealedSecrets) return {};
  return JSON.parse(cipher.decrypt(row.sealedSecrets, secretsContextOf(row.id))) as Record<string, string>;
}

/** What a provider needs: the stored values, secrets unsealed. */
export function credentialsOf(cipher: SecretCipher, row: ConnectionRow): Credentials {
  return {
    id: row.id,
    kind: row.kind as ConnectionKind,
    method: row.method,
    fields: row.fields as Credentials["fields"],
    secrets: unsealSecrets(cipher, row) as Credentials["secrets"],
  };
}

/**
 * Whether an edit points the connection somewhere else: an address field (isAddressField) of its method differs
 * from the stored one (a method that gains an address counts).
 */
export function pointsElsewhere(
  kind: ConnectionKind,
  methodId: string,
  storedFields: Record<string, string>,
  fields: Record<string, string>,
): boolean {
  return (methodOf(kind, methodId)?.fields ?? [])
    .filter(isAddressField)
    .some((field) => (fields[field.name] ?? "") !== (storedFields[field.name] ?? ""));
}

/**
 * The secrets an edit ends with: a secret field sent non-empty replaces the stored one, an empty one keeps it
 * (when the method still has that field); fields the new method lacks are dropped. `missing`: required secrets
 * neither sent nor stored. `reenter`: when the edit points elsewhere (pointsElsewhere), stored secrets are not
 * kept, so none is sent to an address it was not given for: those not sent again.
 */
export function mergeSecrets(
  kind: ConnectionKind,
  methodId: string,
  stored: Record<string, string>,
  sent: Record<string, string>,
  { movedAddress }: { movedAddress: boolean },
): { secret: Record<string, string>; missing: ConnectionFieldName[]; reenter: ConnectionFieldName[] } {
  const method = methodOf(kind, methodId);
  const secret: Record<string, string> = {};
  const missing: ConnectionFieldName[] = [];
  const reenter: ConnectionFieldName[] = [];
  for (const field of method?.fields ?? []) {
    if (!field.secret) continue;
    const value = sent[field.name] || (movedAddress ? undefined : stored[field.name]);
    if (value) secret[field.name] = value;
    else if (stored[field.name]) reenter.push(field.name);
    else if (!field.optional) missing.push(field.name);
  }
  return { secret, missing, reenter };
}

export function statusAfter(check: CheckResult): ConnectionStatus {
  return check.ok ? "VERIFIED" : "FAILING";
}

// ---------------------------------------------------------------------------------------------------------------
// Reading

/** The organization's connection, or undefined (another organization's ids are not found). */
export async function findConnection(db: Database, organizationId: string, id: string) {
  const [row] = await db
    .select()
    .from(connections)
    .where(and(eq(connections.organizationId, organizationId), eq(connections.id, id)));
  return row;
}

/** What relies on each connection: environments running in it, observability links, connections built on it. */
export async function usageOf(db: Database, organizationId: string, ids: string[]) {
  const usage = new Map<string, ConnectionUsage[]>(ids.map((id) => [id, []]));
  if (!ids.length) return usage;
  const add = (connectionId: string | null, entry: ConnectionUsage) => {
    if (connectionId) usage.get(connectionId)?.push(entry);
  };
  const [running, linked, built] = await Promise.all([
    db
      .select({ connectionId: environments.cloudConnectionId, id: environments.id, name: environments.name })
      .from(environments)
      .where(inArray(environments.cloudConnectionId, ids)),
    db
      .select({
        connectionId: observabilityProviders.connectionId,
        id: observabilityProviders.id,
        environmentName: environments.name,
      })
      .from(observabilityProviders)
      .innerJoin(environments, eq(environments.id, observabilityProviders.environmentId))
      .where(inArray(observabilityProviders.connectionId, ids)),
    db
      .select({ id: connections.id, name: connections.name, fields: connections.fields })
      .from(connections)
      .where(
        and(
          eq(connections.organizationId, organizationId),
          or(
            inArray(sql`${connections.fields}->>'AWS_CONNECTION_ID'`, ids),
            inArray(sql`${connections.fields}->>'GITHUB_CONNECTION_ID'`, ids),
          ),
        ),
      ),
  ]);
  for (const row of running) {
    add(row.connectionId, { type: "environment", id: row.id, name: row.name, environmentName: row.name });
  }
  for (const row of linked) {
    add(row.connectionId, {
      type: "observability",
      id: row.id,
      name: `Observability of ${row.environmentName}`,
      environmentName: row.environmentName,
    });
  }
  for (const row of built) {
    const base = row.fields.AWS_CONNECTION_ID ?? row.fields.GITHUB_CONNECTION_ID ?? null;
    add(base, { type: "connection", id: row.id, name: row.name, environmentName: null });
  }
  return usage;
}

const checkColumns = {
  id: connectionChecks.id,
  connectionId: connectionChecks.connectionId,
  at: connectionChecks.at,
  ok: connectionChecks.ok,
  message: connectionChecks.message,
  details: connectionChecks.details,
  actorId: connectionChecks.actorId,
  actorName: users.name,
};
type CheckRow = {
  id: string;
  at: Date;
  ok: boolean;
  message: string;
  details: string[];
  actorId: string | null;
  actorName: string | null;
};

function toCheck(row: CheckRow): ConnectionCheck {
  return {
    id: row.id,
    at: row.at.toISOString(),
    ok: row.ok,
    message: row.message,
    details: row.details,
    actor: row.actorId ? { id: row.actorId, name: row.actorName ?? row.actorId } : null,
  };
}

export async function checksOf(db: Database, connectionId: string, limit = 50): Promise<ConnectionCheck[]> {
  const rows = await db
    .select(checkColumns)
    .from(connectionChecks)
    .leftJoin(users, eq(users.id, connectionChecks.actorId))
    .where(eq(connectionChecks.connectionId, connectionId))
    .orderBy(desc(connectionChecks.at), desc(connectionChecks.id))
    .limit(limit);
  return rows.map(toCheck);
}

/** The newest check of each connection. */
async function lastChecksOf(db: Database, ids: string[]): Promise<Map<string, ConnectionCheck>> {
  if (!ids.length) return new Map();
  const rows = await db
    .selectDistinctOn([connectionChecks.connectionId], checkColumns)
    .from(connectionChecks)
    .leftJoin(users, eq(users.id, connectionChecks.actorId))
    .where(inArray(connectionChecks.connectionId, ids))
    .orderBy(connectionChecks.connectionId, desc(connectionChecks.at), desc(connectionChecks.id));
  return new Map(rows.map((row) => [row.connectionId, toCheck(row)]));
}

const isCommunicationPlatform = (kind: string) => kind.startsWith("COMMUNICATION_PLATFORM_TYPE_");

const rulesOf = (row: ConnectionRow) =>
  isCommunicationPlatform(row.kind) ? ((row.notifications as NotificationRules | null) ?? null) : null;

/**
 * What a Slack or Teams connection's own rules make it used by: the environments it posts for, or every
 * environment when its rules cover all (nothing when no event is on). Shown under "Used by"; unlike `usageOf`,
 * these do not keep it from being deleted, since the rules go with it.
 */
async function notificationUsageOf(db: Database, rows: ConnectionRow[]) {
  const usage = new Map<string, ConnectionUsage[]>();
  const chosenIds = rows.flatMap(
    (row) => (rulesOf(row)?.events.length && rulesOf(row)?.environmentIds) || [],
  );
  const names = new Map(
    chosenIds.length
      ? (
          await db
            .select({ id: environments.id, name: environments.name })
            .from(environments)
            .where(inArray(environments.id, chosenIds))
        ).map((environment) => [environment.id, environment.name])
      : [],
  );
  for (const row of rows) {
    const rules = rulesOf(row);
    if (!rules?.events.length) continue;
    usage.set(
      row.id,
      rules.environmentIds === null
        ? [
            {
              type: "notifications",
              id: row.id,
              name: "Notifications of every environment",
              environmentName: null,
            },
          ]
        : rules.environmentIds.flatMap((id) => {
            const name = names.get(id);
            return name
              ? [
                  {
                    type: "notifications" as const,
                    id,
                    name: `Notifications of ${name}`,
                    environmentName: name,
                  },
                ]
              : [];
          }),
    );
  }
  return usage;
}

/**
 * The API's view of connections: secret values never, their last four characters only to those who manage
 * connections (`showHints`).
 */
export async function describeConnections(
  db: Database,
  organizationId: string,
  rows: ConnectionRow[],
  { showHints }: { showHints: boolean },
): Promise<Connection[]> {
  const ids = rows.map((row) => row.id);
  const creatorIds = [...new Set(rows.map((row) => row.createdBy).filter((id): id is string => !!id))];
  const [usage, notificationUsage, lastChecks, creators] = await Promise.all([
    usageOf(db, organizationId, ids),
    notificationUsageOf(db, rows),
    lastChecksOf(db, ids),
    creatorIds.length
      ? db.select({ id: users.id, name: users.name }).from(users).where(inArray(users.id, creatorIds))
      : Promise.resolve([]),
  ]);
  const creatorName = new Map(creators.map((creator) => [creator.id, creator.name]));
  return rows.map((row) => {
    const kind = row.kind as ConnectionKind;
    return {
      id: row.id,
      kind,
      category: connectionKindDefinitions[kind].category,
      name: row.name,
      method: row.method,
      fields: row.fields,
      secrets: Object.fromEntries(
        Object.entries(row.secretHints).map(([name, hint]) => [
          name,
          { set: true as const, lastFour: showHints ? hint : null },
        ]),
      ),
      status: row.status as ConnectionStatus,
      lastCheck: lastChecks.get(row.id) ?? null,
      usage: [...(usage.get(row.id) ?? []), ...(notificationUsage.get(row.id) ?? [])],
      notifications: rulesOf(row),
      createdBy: row.createdBy
        ? { id: row.createdBy, name: creatorName.get(row.createdBy) ?? row.createdBy }
        : null,
      createdAt: row.createdAt.toISOString(),
      updatedAt: row.updatedAt.toISOString(),
    };
  });
}

/** Records a check and the status it leaves the connection in, in the caller's transaction. */
export async function recordCheck(
  tx: Database,
  connectionId: string,
  check: CheckResult,
  actorId: string | null,
  now: Date,
): Promise<void> {
  await tx.insert(connectionChecks).values({
    connectionId,
    at: now,
    ok: check.ok,
    message: check.message,
    details: check.details,
    actorId,
  });
  await tx
    .update(connections)
    .set({ status: statusAfter(check) })
    .where(eq(connections.id, connectionId));
}
