import { data, type LoaderFunctionArgs } from "@remix-run/node";
import type { LogsFeed } from "~/features/services/details/log-query";
import { TAIL_LOGS_LOG_LIMIT } from "~/features/services/details/dynamic-settings";
import { requireEnvironmentIdentity } from "~/features/workspace/workspace.server";
import { userMessageOf } from "~/platform/action-errors.server";
import { isPlatformError } from "~/platform/client.server";
import { getServiceLogs } from "~/platform/resource-telemetry.server";

/** The live tail's JSON (`?after=<line id>`): the lines logged since, oldest first; the last ones without it. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { api, tenantId, environment, headers } = await requireEnvironmentIdentity(
    request,
    params.environmentName,
  );
  headers.set("Cache-Control", "no-store");
  const after = new URL(request.url).searchParams.get("after");
  try {
    const { logs, podNames } = await getServiceLogs(api, tenantId, environment.id, params.serviceId ?? "", {
      logType: "LIVE",
      limit: TAIL_LOGS_LOG_LIMIT,
      ...(after && /^\d+$/.test(after) ? { after } : {}),
    });
    return data<LogsFeed>({ kind: "lines", logs, podNames }, { headers });
  } catch (error) {
    if (!isPlatformError(error)) throw error;
    return data<LogsFeed>({ kind: "error", message: userMessageOf(error) }, { headers });
  }
}
