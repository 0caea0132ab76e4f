import { data, type LoaderFunctionArgs } from "@remix-run/node";
import { errorMessages } from "#contract/errors";
import type { SourceOptions } from "~/features/applications/source-options";
import { requireEnvironmentIdentity } from "~/features/workspace/workspace.server";
import { listChartVersions, listCharts } from "~/platform/applications.server";
import { isPlatformError } from "~/platform/client.server";
import { listBranches, listRepositories, listTags } from "~/platform/connections.server";

/**
 * GET the choices of an application's source, as the connection or chart repository lists them:
 * ?list=repositories|tags|branches&connectionId=&repository=, or ?list=charts|chart-versions&chartRepositoryId=&chart=.
 * A provider's refusal is answered as its message, for the field to show.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { api, tenantId, environment, headers } = await requireEnvironmentIdentity(
    request,
    params.environmentName,
  );
  const query = new URL(request.url).searchParams;
  const connectionId = query.get("connectionId") ?? "";
  const repository = query.get("repository") ?? "";
  const chartRepositoryId = query.get("chartRepositoryId") ?? "";
  const list = query.get("list");
  const answer = (options: SourceOptions) => data(options, { headers });
  try {
    switch (list) {
      case "repositories":
        return answer({
          options: (await listRepositories(api, tenantId, connectionId)).map((entry) => entry.name),
        });
      case "tags":
        return answer({
          options: (await listTags(api, tenantId, connectionId, repository)).map((entry) => entry.name),
        });
      case "branches":
        return answer({
          options: (await listBranches(api, tenantId, connectionId, repository)).map((entry) => entry.name),
        });
      case "charts":
        return answer({
          options: (await listCharts(api, tenantId, environment.id, chartRepositoryId)).charts.map(
            (chart) => chart.name,
          ),
        });
      case "chart-versions":
        return answer({
          options: (
            await listChartVersions(
              api,
              tenantId,
              environment.id,
              chartRepositoryId,
              query.get("chart") ?? "",
            )
          ).map((version) => version.version),
        });
      default:
        return data({ options: [], error: "Unknown list" } satisfies SourceOptions, { status: 400, headers });
    }
  } catch (error) {
    if (!isPlatformError(error)) throw error;
    return answer({ options: [], error: error.message || errorMessages.generic });
  }
}
