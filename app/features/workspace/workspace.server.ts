import { redirect } from "@remix-run/node";
import { errorCodes, errorMessages } from "#contract/errors";
import { tenantPaths, tenantResponseSchema } from "#contract/tenants";
import { resolveEnvironment } from "~/features/environments/current-environment";
import { isPlatformError } from "~/platform/client.server";
import { listEnvironments } from "~/platform/environments.server";
import { requireOrganizationClient } from "~/platform/request.server";
import { throwRouteError } from "~/platform/route-errors.server";

/** `/env/{environmentName}/...`: the environment name is the second path segment (SPEC §2.1). */
export function environmentNameInPath(pathname: string): string | null {
  const [, first, second] = pathname.split("/");
  return first === "env" && second ? decodeURIComponent(second) : null;
}

/**
 * Everything the application shell needs: the resolved organization (approved, else the pending screen), its
 * environments (a failure is KE-WK-001) and the selected environment (SPEC §4 order; remembered per tenant).
 */
export async function loadWorkspace(request: Request) {
  const client = await requireOrganizationClient(request);
  const { api, tenantId, session, headers } = client;
  try {
    await api.get(tenantPaths.one(tenantId), tenantResponseSchema);
  } catch (error) {
    if (isPlatformError(error) && error.message === errorMessages.tenantApprovalRequired) {
      throw redirect("/pending-approval", { headers });
    }
    throwRouteError(error, errorCodes.workspaceListFetch, headers);
  }
  const environments = await listEnvironments(api, tenantId).catch((error: unknown) =>
    throwRouteError(error, errorCodes.workspaceListFetch, headers),
  );
  const stored = session.get("environment");
  const resolution = resolveEnvironment(environments, {
    fromUrl: environmentNameInPath(new URL(request.url).pathname),
    stored: stored?.tenantId === tenantId ? stored.name : null,
  });
  if (resolution.kind === "none" && stored) {
    session.unset("environment");
    await client.saveSession();
  }
  return {
    ...client,
    environments,
    currentEnvironment: resolution.kind === "selected" ? resolution.environment : null,
  };
}

/** For routes under /env/{environmentName}: the named environment, remembered; an unknown name goes to the root. */
export async function requireEnvironment(request: Request, environmentName: string | undefined) {
  const client = await requireOrganizationClient(request);
  const environments = await listEnvironments(client.api, client.tenantId).catch((error: unknown) =>
    throwRouteError(error, errorCodes.workspaceListFetch, client.headers),
  );
  const resolution = resolveEnvironment(environments, { fromUrl: environmentName ?? "" });
  if (resolution.kind !== "selected") throw redirect("/", { headers: client.headers });
  const stored = client.session.get("environment");
  if (stored?.tenantId !== client.tenantId || stored.name !== resolution.environment.name) {
    client.session.set("environment", { tenantId: client.tenantId, name: resolution.environment.name });
    await client.saveSession();
  }
  return { ...client, environment: resolution.environment };
}
