import { data, type LoaderFunctionArgs } from "@remix-run/node";
import { parseCreatableServiceType } from "~/features/services/create/create-form";
import {
  loadApplicationCostEstimateFromForm,
  loadServiceCostEstimateFromForm,
} from "~/features/services/create/cost-estimate.server";
import { requireEnvironmentIdentity } from "~/features/workspace/workspace.server";

/**
 * GET ?serviceType=&config.engine=...: the monthly cost estimate of a create form's configuration, loaded by the
 * form as it changes (a GET, so asking does not revalidate the page).
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { api, tenantId, environment, headers } = await requireEnvironmentIdentity(
    request,
    params.environmentName,
  );
  const query = new URL(request.url).searchParams;
  const target = { api, tenantId, environmentId: environment.id };
  if (query.get("serviceType") === "application") {
    return data(await loadApplicationCostEstimateFromForm(target, query), { headers });
  }
  const serviceType = parseCreatableServiceType(query.get("serviceType") ?? undefined);
  if (!serviceType) {
    return data({ kind: "error" as const, message: "Unknown service type" }, { status: 400, headers });
  }
  const result = await loadServiceCostEstimateFromForm(target, serviceType, query);
  return data(result, { headers });
}
