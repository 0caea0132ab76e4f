import { redirect, type AppLoadContext } from "@remix-run/node";
import { apiErrorCodes, errorCodes, errorMessages } from "#contract/errors";
import { tenantPaths, tenantResponseSchema } from "#contract/tenants";
import { expireSession, refreshSessionTokens } from "~/auth/auth.server";
import { commitSession } from "~/auth/session.server";
import { resolveEnvironment } from "~/features/environments/current-environment";
import { isPlatformError } from "~/platform/client.server";
import { listEnvironmentSummaries } from "~/platform/environments.server";
import type { EnvironmentSummary } from "#contract/environments";
import type { PlatformClient } from "~/platform/client.server";
import { memoizeForRequest } from "~/platform/request-memo.server";
import { requireOrganizationClient } from "~/platform/request.server";
import { throwRouteError } from "~/platform/route-errors.server";

/** `/env/{environmentName}/...`: the environment name is the second path segment (SPEC §2.1). */
export function environmentNameInPath(pathname: string): string | null {
  const [, first, second] = pathname.split("/");
  return first === "env" && second ? decodeURIComponent(second) : null;
}

/** The organization's environments (names and ids, no totals), fetched once per request (see memoizeForRequest). */
function environmentsOf(api: PlatformClient, tenantId: string, context: AppLoadContext | undefined) {
  return memoizeForRequest(context, `environments:${tenantId}`, () =>
    listEnvironmentSummaries(api, tenantId),
  );
}

/**
 * Everything the application shell needs: the resolved organization (approved, else the pending screen), its
 * environments (a failure is KE-WK-001) and the selected environment (SPEC §4 order; remembered per tenant).
 * The tenant and the environments are asked for together: an unapproved tenant's list fails too, and the
 * tenant's answer decides which error wins.
 */
export async function loadWorkspace(request: Request, context?: AppLoadContext) {
  const client = await requireOrganizationClient(request);
  const { api, tenantId, session } = client;
  const [tenant, listed] = await Promise.allSettled([
    api.get(tenantPaths.one(tenantId), tenantResponseSchema),
    environmentsOf(api, tenantId, context),
  ]);
  if (tenant.status === "rejected") return throwWorkspaceError(tenant.reason, request, client);
  if (listed.status === "rejected") return throwWorkspaceError(listed.reason, request, client);
  const environments = listed.value;
  const stored = session.get("environment");
  const resolution = resolveEnvironment(environments, {
    fromUrl: environmentNameInPath(new URL(request.url).pathname),
    stored: stored?.tenantId === tenantId ? stored.name : null,
  });
  if (resolution.kind === "none" && stored) {
    session.unset("environment");
    await client.saveSession();
  } else if (resolution.kind === "selected" && environmentNameInPath(new URL(request.url).pathname)) {
    await rememberEnvironment(client, resolution.environment);
  }
  return {
    ...client,
    environments,
    currentEnvironment: resolution.kind === "selected" ? resolution.environment : null,
  };
}

/**
 * An unapproved tenant goes to the pending screen. A tenant the user is no longer a member of (removed, or left
 * on another device) is dropped: the session's organizations are refreshed from the identity provider and the
 * user goes home, which opens another organization or the creation of one. Any other failure is KE-WK-001.
 */
async function throwWorkspaceError(
  error: unknown,
  request: Request,
  { headers, session }: Awaited<ReturnType<typeof requireOrganizationClient>>,
): Promise<never> {
  if (isPlatformError(error) && error.message === errorMessages.tenantApprovalRequired) {
    throw redirect("/pending-approval", { headers });
  }
  if (isPlatformError(error) && error.status === 403 && error.code === apiErrorCodes.forbidden) {
    session.unset("organizationId");
    session.unset("environment");
    if (!(await refreshSessionTokens(session))) throw await expireSession(request, session);
    headers.set("Set-Cookie", await commitSession(session));
    throw redirect("/", { headers });
  }
  return throwRouteError(error, errorCodes.workspaceListFetch, headers);
}

/**
 * For routes under /env/{environmentName}: the named environment, remembered; an unknown name goes to the root.
 * A loader passes its `context` so the list is the one the shell's loader asks for in the same request.
 */
export async function requireEnvironment(
  request: Request,
  environmentName: string | undefined,
  context?: AppLoadContext,
) {
  const client = await requireOrganizationClient(request);
  const environments = await environmentsOf(client.api, client.tenantId, context).catch((error: unknown) =>
    throwRouteError(error, errorCodes.workspaceListFetch, client.headers),
  );
  const resolution = resolveEnvironment(environments, { fromUrl: environmentName ?? "" });
  if (resolution.kind !== "selected") throw redirect("/", { headers: client.headers });
  await rememberEnvironment(client, resolution.environment);
  return { ...client, environment: resolution.environment };
}

/** What never changes about an environment: enough for the pages that only pass its id on to the platform. */
export type EnvironmentIdentity = Pick<
  EnvironmentSummary,
  "id" | "name" | "cloudConnectionId" | "cloudProvider" | "region"
>;

/**
 * requireEnvironment for the pages that need only the environment's id (and name): the session remembers the id of
 * the environment last opened, so a page of it (and its 5-second poll) asks the platform for its own data at once
 * instead of first for the environment names. Another name, or none remembered, is looked up as requireEnvironment
 * does. The shell checks the remembered id against the names on every navigation (loadWorkspace); an environment
 * deleted since answers 404 to the page's own call, which the page shows as any failed call.
 */
export async function requireEnvironmentIdentity(
  request: Request,
  environmentName: string | undefined,
  context?: AppLoadContext,
): Promise<Awaited<ReturnType<typeof requireOrganizationClient>> & { environment: EnvironmentIdentity }> {
  const client = await requireOrganizationClient(request);
  const stored = client.session.get("environment");
  if (
    stored?.tenantId === client.tenantId &&
    stored.name === environmentName &&
    stored.id &&
    stored.cloudProvider &&
    stored.region
  ) {
    const { id, name, cloudConnectionId = null, cloudProvider, region } = stored;
    return { ...client, environment: { id, name, cloudConnectionId, cloudProvider, region } };
  }
  return requireEnvironment(request, environmentName, context);
}

/** Remembers the environment (per tenant) with its id, saving the session only when that changed. */
async function rememberEnvironment(
  client: Awaited<ReturnType<typeof requireOrganizationClient>>,
  { id, name, cloudConnectionId, cloudProvider, region }: EnvironmentIdentity,
) {
  const stored = client.session.get("environment");
  const { tenantId } = client;
  if (
    stored?.tenantId === tenantId &&
    stored.name === name &&
    stored.id === id &&
    stored.cloudConnectionId === cloudConnectionId &&
    stored.cloudProvider === cloudProvider &&
    stored.region === region
  ) {
    return;
  }
  client.session.set("environment", { tenantId, name, id, cloudConnectionId, cloudProvider, region });
  await client.saveSession();
}
