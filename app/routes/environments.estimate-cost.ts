import { data, type LoaderFunctionArgs } from "@remix-run/node";
import { loadCostEstimate } from "~/features/environments/cost-estimate.server";
import { requireOrganizationClient } from "~/platform/request.server";

/** The monthly cost estimate of a choice of cloud, region and add-ons, loaded by forms as the choice changes. */
export async function loader({ request }: LoaderFunctionArgs) {
  const { api, tenantId, headers } = await requireOrganizationClient(request);
  const query = new URL(request.url).searchParams;
  const result = await loadCostEstimate(api, tenantId, {
    cloudProvider: query.get("cloudProvider") ?? undefined,
    region: query.get("region") ?? undefined,
    addons: query.getAll("addons"),
  });
  return data(result, { headers });
}
