import {
  applicationPaths,
  applicationVersionListSchema,
  applicationVersionResponseSchema,
  rollbackResponseSchema,
} from "#contract/applications";
import { chartListSchema, chartRepositoryPaths, chartVersionListSchema } from "#contract/chart-repositories";
import {
  deployCommitResponseSchema,
  deployOnPushChangeResponseSchema,
  deployOnPushPaths,
  deployOnPushResponseSchema,
} from "#contract/deploy-on-push";
import type { PlatformClient } from "./client.server";

/** The platform's application endpoints (contract/applications.ts, chart-repositories.ts, deploy-on-push.ts). */

/** GET versions: the application's deployments, newest first. */
export async function listApplicationVersions(
  api: PlatformClient,
  tenantId: string,
  environmentId: string,
  id: string,
) {
  const { versions } = await api.get(
    applicationPaths.versions(tenantId, environmentId, id),
    applicationVersionListSchema,
  );
  return versions;
}

/** GET versions/{versionId}: the version and what rolling back to it changes. */
export async function getApplicationVersion(
  api: PlatformClient,
  tenantId: string,
  environmentId: string,
  id: string,
  versionId: string,
) {
  return api.get(
    applicationPaths.version(tenantId, environmentId, id, versionId),
    applicationVersionResponseSchema,
  );
}

/** POST versions/{versionId}/rollback: 409 while a deployment runs or for the running version. */
export async function rollbackApplication(
  api: PlatformClient,
  tenantId: string,
  environmentId: string,
  id: string,
  versionId: string,
) {
  return api.post(
    applicationPaths.rollback(tenantId, environmentId, id, versionId),
    rollbackResponseSchema,
    {},
  );
}

/** GET chart-repositories/{id}/charts. */
export async function listCharts(
  api: PlatformClient,
  tenantId: string,
  environmentId: string,
  repositoryId: string,
) {
  return api.get(chartRepositoryPaths.charts(tenantId, environmentId, repositoryId), chartListSchema);
}

/** GET chart-repositories/{id}/charts/{chart}/versions, newest first. */
export async function listChartVersions(
  api: PlatformClient,
  tenantId: string,
  environmentId: string,
  repositoryId: string,
  chart: string,
) {
  const { versions } = await api.get(
    chartRepositoryPaths.versions(tenantId, environmentId, repositoryId, chart),
    chartVersionListSchema,
  );
  return versions;
}

/** GET deploy-on-push: null until it was first switched on. */
export async function getDeployOnPush(
  api: PlatformClient,
  tenantId: string,
  environmentId: string,
  id: string,
) {
  const { deployOnPush } = await api.get(
    deployOnPushPaths.settings(tenantId, environmentId, id),
    deployOnPushResponseSchema,
  );
  return deployOnPush;
}

/** PUT deploy-on-push: the secret comes back only when switching on made it. */
export async function setDeployOnPush(
  api: PlatformClient,
  tenantId: string,
  environmentId: string,
  id: string,
  enabled: boolean,
) {
  return api.put(deployOnPushPaths.settings(tenantId, environmentId, id), deployOnPushChangeResponseSchema, {
    enabled,
  });
}

/** POST deploy-commit: the commit a SHA, branch or tag names, resolved by GitHub and deployed as a push. */
export async function deployCommit(
  api: PlatformClient,
  tenantId: string,
  environmentId: string,
  id: string,
  ref: string,
) {
  return api.post(deployOnPushPaths.deployCommit(tenantId, environmentId, id), deployCommitResponseSchema, {
    ref,
  });
}

/** POST deploy-on-push/secret: a new secret, answered once. */
export async function rotateDeployOnPushSecret(
  api: PlatformClient,
  tenantId: string,
  environmentId: string,
  id: string,
) {
  return api.post(
    deployOnPushPaths.secret(tenantId, environmentId, id),
    deployOnPushChangeResponseSchema,
    {},
  );
}
