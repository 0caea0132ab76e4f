import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { errorCodes } from "#contract/errors";
import { resolveEnvironment } from "~/features/environments/current-environment";
import { listEnvironments } from "~/platform/environments.server";
import { requireOrganizationClient } from "~/platform/request.server";
import { throwRouteError } from "~/platform/route-errors.server";

/** Home: the selected environment (stored, else the first), or creating the first one. */
export async function loader({ request }: LoaderFunctionArgs) {
  const { api, tenantId, session, headers, saveSession } = await requireOrganizationClient(request);
  const environments = await listEnvironments(api, tenantId).catch((error: unknown) =>
    throwRouteError(error, errorCodes.workspaceListFetch, headers),
  );
  const stored = session.get("environment");
  const resolution = resolveEnvironment(environments, {
    stored: stored?.tenantId === tenantId ? stored.name : null,
  });
  if (resolution.kind !== "selected") {
    if (stored) {
      session.unset("environment");
      await saveSession();
    }
    throw redirect("/environments/create", { headers });
  }
  throw redirect(`/env/${encodeURIComponent(resolution.environment.name)}`, { headers });
}
