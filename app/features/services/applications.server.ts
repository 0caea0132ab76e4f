import { data, type AppLoadContext } from "@remix-run/node";
import { errorCodes } from "#contract/errors";
import { requireEnvironmentIdentity } from "~/features/workspace/workspace.server";
import { throwRouteError } from "~/platform/route-errors.server";
import { listServices } from "~/platform/services.server";

/** The most applications one page shows (the platform's largest page). */
const APPLICATIONS_PAGE_SIZE = 200;

/** The loader of /env/{name}/applications and its /list: the environment's services of type application. */
export async function loadApplications(
  request: Request,
  environmentName: string | undefined,
  context: AppLoadContext,
) {
  const { api, tenantId, environment, headers } = await requireEnvironmentIdentity(
    request,
    environmentName,
    context,
  );
  const list = await listServices(api, tenantId, environment.id, {
    serviceType: "application",
    pageSize: APPLICATIONS_PAGE_SIZE,
  }).catch((error: unknown) => throwRouteError(error, errorCodes.applicationFetch, headers));
  return data(
    { environmentName: environment.name, applications: list.infrastructure, total: list.total },
    { headers },
  );
}
