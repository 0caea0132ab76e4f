import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { servicePagePaths } from "~/features/services/paths";
import { requireEnvironment, requireEnvironmentIdentity } from "~/features/workspace/workspace.server";
import { getApplicationVersion, rollbackApplication } from "~/platform/applications.server";
import { userMessageOf } from "~/platform/action-errors.server";
import { isPlatformError } from "~/platform/client.server";
import { dataWithToast, redirectWithToast } from "~/toast.server";

/** GET: an application's version and what rolling back to it changes against the running one (or why not). */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { api, tenantId, environment, headers } = await requireEnvironmentIdentity(
    request,
    params.environmentName,
  );
  try {
    const answer = await getApplicationVersion(
      api,
      tenantId,
      environment.id,
      params.serviceId ?? "",
      params.versionId ?? "",
    );
    return data({ ok: true as const, ...answer }, { headers });
  } catch (error) {
    if (!isPlatformError(error)) throw error;
    return data({ ok: false as const, message: userMessageOf(error) }, { headers });
  }
}

/** POST: roll back to this version, a deployment like any other; the history shows it. */
export async function action({ request, params }: ActionFunctionArgs) {
  const { api, tenantId, environment, headers } = await requireEnvironment(request, params.environmentName);
  const serviceId = params.serviceId ?? "";
  // The version's number, as the dialog showed it, only names it in the toast.
  const number = Number((await request.formData()).get("number")) || null;
  try {
    await rollbackApplication(api, tenantId, environment.id, serviceId, params.versionId ?? "");
  } catch (error) {
    if (!isPlatformError(error)) throw error;
    return dataWithToast(
      { error: userMessageOf(error) },
      { variant: "error", message: userMessageOf(error) },
      {
        headers,
      },
    );
  }
  throw await redirectWithToast(
    servicePagePaths.details(environment.name, serviceId, { tab: "history" }),
    { variant: "success", message: number ? `Rolling back to version ${number}` : "Rolling back" },
    { headers },
  );
}
