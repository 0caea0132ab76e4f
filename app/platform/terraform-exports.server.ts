import { terraformExportPaths, terraformExportResponseSchema } from "#contract/terraform-exports";
import type { PlatformClient } from "./client.server";

/** POST .../terraform-export: starts 'Export as Terraform'; 409 for an environment in no AWS account. */
export async function startTerraformExport(api: PlatformClient, tenantId: string, environmentId: string) {
  const { terraformExport } = await api.post(
    terraformExportPaths.create(tenantId, environmentId),
    terraformExportResponseSchema,
  );
  return terraformExport;
}

/** GET .../terraform-export/{id}: the export as it stands, with its download link once completed. */
export async function getTerraformExport(
  api: PlatformClient,
  tenantId: string,
  environmentId: string,
  exportId: string,
) {
  const { terraformExport } = await api.get(
    terraformExportPaths.one(tenantId, environmentId, exportId),
    terraformExportResponseSchema,
  );
  return terraformExport;
}
