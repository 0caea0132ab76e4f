import { data, redirect } from "@remix-run/node";
import { errorCodes } from "#contract/errors";
import { isPlatformError, type PlatformClient } from "~/platform/client.server";
import { listEnvironmentSummaries } from "~/platform/environments.server";
import { requireOrganizationClient } from "~/platform/request.server";
import { throwRouteError } from "~/platform/route-errors.server";
import type { CostSearchQuery } from "./cost-search";
import { buildCostSearch } from "./cost-search.server";

/**
 * The loader of a cost page with a window (cloud, Kubernetes): the window from the address, the organization's
 * environments for its form, and `load`'s answer, or none while the window is invalid. Without billing.view the
 * platform answers 403: the page is not for this member.
 */
export async function loadCostPage<T>(
  request: Request,
  load: (api: PlatformClient, tenantId: string, query: CostSearchQuery) => Promise<T>,
) {
  const { api, tenantId, headers } = await requireOrganizationClient(request);
  const search = buildCostSearch(new URL(request.url).searchParams);
  try {
    const [environments, cost] = await Promise.all([
      listEnvironmentSummaries(api, tenantId),
      search.kind === "query" ? load(api, tenantId, search.query) : null,
    ]);
    return data(
      { search, cost, environments: environments.map(({ id, name }) => ({ id, name })) },
      { headers },
    );
  } catch (error) {
    if (isPlatformError(error) && error.status === 403) throw redirect("/401", { headers });
    throwRouteError(error, errorCodes.resourceListFetch, headers);
  }
}
