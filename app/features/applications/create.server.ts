import { data, type AppLoadContext } from "@remix-run/node";
import { getFeatureFlags } from "~/features/feature-flags/flags.server";
import { requirePermission } from "~/features/permissions/permissions.server";
import { INCOMPLETE_CONFIG_HINT } from "~/features/services/create/cost-estimate.server";
import { requireEnvironmentIdentity } from "~/features/workspace/workspace.server";
import type { PlatformClient } from "~/platform/client.server";
import { listConnections } from "~/platform/connections.server";
import { listChartRepositories, listServices } from "~/platform/services.server";
import type { SourceChoices } from "./source-fields";
import { formConstraint } from "~/components/form-constraint";
import { applicationFormFieldsSchema } from "./create-form";

/**
 * The create page's data: the connections and chart repositories a source can use (chart repositories only with
 * the private-chart-apps flag), the environment's services (for variables naming their attributes) and the
 * estimate of the starting configuration.
 */
export async function loadCreateApplication(
  request: Request,
  environmentName: string | undefined,
  context: AppLoadContext,
) {
  const client = await requireEnvironmentIdentity(request, environmentName, context);
  const { api, tenantId, environment, headers } = client;
  await requirePermission(request, client, "services.configure", { environmentId: environment.id });
  const { choices, serviceNames } = await loadSourceChoices(api, tenantId, environment.id);
  return data(
    {
      environmentName: environment.name,
      choices,
      serviceNames,
      // The starting configuration has no image yet: the estimate comes once the form is complete.
      estimate: { kind: "error" as const, message: INCOMPLETE_CONFIG_HINT },
      // Read from the schema here, on the server: the page's first visit carries no schema walker (first-visit bytes).
      constraint: formConstraint(applicationFormFieldsSchema),
    },
    { headers },
  );
}

/**
 * What an application form chooses from: the connections and chart repositories a source can use (chart
 * repositories only with the private-chart-apps flag) and the environment's services (variables naming their
 * attributes). The create page and the details page's configuration tab both use it.
 */
export async function loadSourceChoices(api: PlatformClient, tenantId: string, environmentId: string) {
  const flags = await getFeatureFlags(api, { tenantId, environmentId });
  const [registries, github, chartRepositories, services] = await Promise.all([
    listConnections(api, tenantId, { category: "container-registry" }),
    listConnections(api, tenantId, { category: "github-app" }),
    flags["private-chart-apps"] ? listChartRepositories(api, tenantId, environmentId) : null,
    listServices(api, tenantId, environmentId, { pageSize: 200 }),
  ]);
  const choiceOf = (entry: { id: string; name: string }) => ({ value: entry.id, label: entry.name });
  const choices: SourceChoices = {
    registryConnections: registries.map(choiceOf),
    githubConnections: github.filter((entry) => entry.kind === "VERSION_CONTROL_TYPE_GITHUB").map(choiceOf),
    chartRepositories: chartRepositories?.map(choiceOf) ?? null,
  };
  return { choices, serviceNames: services.infrastructure.map((service) => service.name) };
}
