import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { errorMessages } from "#contract/errors";
import type { TerraformExportResult } from "~/features/environments/terraform-export";
import { requireEnvironment, requireEnvironmentIdentity } from "~/features/workspace/workspace.server";
import { isPlatformError } from "~/platform/client.server";
import { getTerraformExport, startTerraformExport } from "~/platform/terraform-exports.server";

/**
 * 'Export as Terraform' of the environment: POST starts the export, GET `?id=` polls it. The platform's refusals
 * (an environment in no AWS account, a missing permission, an export gone) come back as data in its words, so the
 * button shows them instead of the page turning into the error boundary.
 */
async function answer(headers: Headers, run: () => Promise<TerraformExportResult>) {
  try {
    return data<TerraformExportResult>(await run(), { headers });
  } catch (error) {
    if (!isPlatformError(error)) throw error;
    return data<TerraformExportResult>(
      { kind: "error", message: error.message || errorMessages.generic },
      { headers },
    );
  }
}

export async function action({ request, params }: ActionFunctionArgs) {
  const { api, tenantId, environment, headers } = await requireEnvironment(request, params.environmentName);
  return answer(headers, async () => ({
    kind: "export",
    terraformExport: await startTerraformExport(api, tenantId, environment.id),
  }));
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { api, tenantId, environment, headers } = await requireEnvironmentIdentity(
    request,
    params.environmentName,
  );
  const exportId = new URL(request.url).searchParams.get("id") ?? "";
  return answer(headers, async () => ({
    kind: "export",
    terraformExport: await getTerraformExport(api, tenantId, environment.id, exportId),
  }));
}
