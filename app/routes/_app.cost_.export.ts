import type { LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { errorCodes } from "#contract/errors";
import { costPagePaths } from "~/features/cost/cost-search";
import { buildCostSearch } from "~/features/cost/cost-search.server";
import { isPlatformError } from "~/platform/client.server";
import { exportCost } from "~/platform/cost.server";
import { requireOrganizationClient } from "~/platform/request.server";
import { throwRouteError } from "~/platform/route-errors.server";

/** The cost overview's window as a CSV download: the platform writes the file from the page's own query. */
export async function loader({ request }: LoaderFunctionArgs) {
  const { api, tenantId, organization, headers } = await requireOrganizationClient(request);
  const url = new URL(request.url);
  const search = buildCostSearch(url.searchParams);
  if (search.kind === "invalid") throw redirect(`${costPagePaths.overview}${url.search}`, { headers });
  try {
    const csv = await exportCost(api, tenantId, search.query);
    headers.set("Content-Type", "text/csv; charset=utf-8");
    headers.set(
      "Content-Disposition",
      `attachment; filename="cost-${organization.name}-${search.query.window}.csv"`,
    );
    headers.set("Cache-Control", "no-store");
    return new Response(csv, { headers });
  } catch (error) {
    if (isPlatformError(error) && error.status === 403) throw redirect("/401", { headers });
    throwRouteError(error, errorCodes.resourceListFetch, headers);
  }
}
