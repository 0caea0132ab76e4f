import * as z from "zod";
import {
  awsRoleSetupSchema,
  branchListSchema,
  connectionCheckListSchema,
  connectionCheckResponseSchema,
  connectionListSchema,
  connectionPaths,
  connectionResponseSchema,
  deliveryListSchema,
  repositoryListSchema,
  tagListSchema,
  ticketResponseSchema,
  type ConnectionCategory,
  type ConnectionKind,
  type CreateConnection,
  type NotificationRules,
  type UpdateConnection,
} from "#contract/connections";
import type { PlatformClient } from "./client.server";

/** The answer of a deletion: no content. */
const noContentSchema = z.unknown();

/** The organization's connections, all of them or those of one category or kind. */
export async function listConnections(
  api: PlatformClient,
  tenantId: string,
  filter: { category?: ConnectionCategory; kind?: ConnectionKind } = {},
) {
  const { connections } = await api.get(connectionPaths.list(tenantId, filter), connectionListSchema);
  return connections;
}

export async function getConnection(api: PlatformClient, tenantId: string, connectionId: string) {
  const { connection } = await api.get(connectionPaths.one(tenantId, connectionId), connectionResponseSchema);
  return connection;
}

/**
 * Creates a connection, checked against its provider unless `verify` is false: 400 with field errors on bad
 * input, 422 CONNECTION_CHECK_FAILED with the provider's answer when the check fails (nothing is stored).
 */
export async function createConnection(api: PlatformClient, tenantId: string, request: CreateConnection) {
  const { connection } = await api.post(connectionPaths.list(tenantId), connectionResponseSchema, request);
  return connection;
}

/** Replaces a connection's name and fields; a secret field left out keeps its stored value. 400/422 as create. */
export async function updateConnection(
  api: PlatformClient,
  tenantId: string,
  connectionId: string,
  request: UpdateConnection,
) {
  const { connection } = await api.put(
    connectionPaths.one(tenantId, connectionId),
    connectionResponseSchema,
    request,
  );
  return connection;
}

/** Deletes a connection; 409 while anything uses it (the message says what). */
export async function deleteConnection(api: PlatformClient, tenantId: string, connectionId: string) {
  await api.delete(connectionPaths.one(tenantId, connectionId), noContentSchema);
}

/** 'Test connection': checks the stored credentials against the provider now, and records the check. */
export async function testConnection(api: PlatformClient, tenantId: string, connectionId: string) {
  return api.post(connectionPaths.checks(tenantId, connectionId), connectionCheckResponseSchema);
}

/** The connection's checks, newest first. */
export async function listConnectionChecks(api: PlatformClient, tenantId: string, connectionId: string) {
  const { checks } = await api.get(connectionPaths.checks(tenantId, connectionId), connectionCheckListSchema);
  return checks;
}

/** The notifications posted through a Slack or Teams connection, newest first, with each attempt. */
export async function listDeliveries(api: PlatformClient, tenantId: string, connectionId: string) {
  const { deliveries } = await api.get(
    connectionPaths.deliveries(tenantId, connectionId),
    deliveryListSchema,
  );
  return deliveries;
}

/** Which events a Slack or Teams connection posts, for which environments. */
export async function updateNotificationRules(
  api: PlatformClient,
  tenantId: string,
  connectionId: string,
  rules: NotificationRules,
) {
  const { connection } = await api.put(
    connectionPaths.notifications(tenantId, connectionId),
    connectionResponseSchema,
    rules,
  );
  return connection;
}

/** A registry's repositories, or a GitHub organization's; 502 with the provider's answer when it refuses. */
export async function listRepositories(api: PlatformClient, tenantId: string, connectionId: string) {
  const { repositories } = await api.get(
    connectionPaths.repositories(tenantId, connectionId),
    repositoryListSchema,
  );
  return repositories;
}

/** A registry repository's tags. */
export async function listTags(
  api: PlatformClient,
  tenantId: string,
  connectionId: string,
  repository: string,
) {
  const { tags } = await api.get(connectionPaths.tags(tenantId, connectionId, repository), tagListSchema);
  return tags;
}

/** A GitHub repository's branches. */
export async function listBranches(
  api: PlatformClient,
  tenantId: string,
  connectionId: string,
  repository: string,
) {
  const { branches } = await api.get(
    connectionPaths.branches(tenantId, connectionId, repository),
    branchListSchema,
  );
  return branches;
}

/** The AWS role flow: the organization's external id and the CloudFormation stack's quick-create link. */
export async function getAwsRoleSetup(api: PlatformClient, tenantId: string) {
  return api.get(connectionPaths.awsRoleSetup(tenantId), awsRoleSetupSchema);
}

/** Opens a Jira issue for the service's failed deployment. */
export async function createTicket(
  api: PlatformClient,
  tenantId: string,
  at: { environmentId: string; serviceId: string; connectionId: string },
) {
  const { ticket } = await api.post(
    connectionPaths.tickets(tenantId, at.environmentId, at.serviceId),
    ticketResponseSchema,
    { connectionId: at.connectionId },
  );
  return ticket;
}
