import * as z from "zod";
import { environmentPaths } from "./environments";

/**
 * 'Export as Terraform' of an environment in an AWS account (issue 14): a job reads what the platform created
 * there (everything tagged with the environment's id) and writes the marketplace tool's kind of archive, offered
 * through a signed link that expires. IN_PROGRESS while it reads AWS, then COMPLETED or FAILED (with details).
 */
export const terraformExportStatuses = ["IN_PROGRESS", "COMPLETED", "FAILED"] as const;
export const terraformExportStatusSchema = z.enum(terraformExportStatuses);
export type TerraformExportStatus = z.infer<typeof terraformExportStatusSchema>;

export const terraformExportSchema = z.object({
  id: z.string(),
  environmentId: z.string(),
  status: terraformExportStatusSchema,
  /** Why the export failed, in AWS's words where AWS refused; null otherwise. */
  details: z.string().nullable(),
  /** A signed, expiring link to the archive; null until COMPLETED and once the link has expired. */
  downloadURL: z.string().nullable(),
  /** When `downloadURL` stops working, in epoch seconds; 0 while there is no download. */
  downloadURLExpirationTime: z.number().int().nonnegative(),
  /** How many Terraform resources the archive declares; null until COMPLETED. */
  resourceCount: z.number().int().nonnegative().nullable(),
  createdAt: z.string(),
});
export type TerraformExport = z.infer<typeof terraformExportSchema>;

export const terraformExportResponseSchema = z.object({ terraformExport: terraformExportSchema });

/**
 * POST starts an export (201 terraformExportResponseSchema; 409 for an environment that runs in no AWS account);
 * GET polls one (terraformExportResponseSchema; 404 for an unknown id or another environment's export).
 */
export const terraformExportPaths = {
  create: (tenantId: string, environmentId: string) =>
    `${environmentPaths.one(tenantId, environmentId)}/terraform-export`,
  one: (tenantId: string, environmentId: string, exportId: string) =>
    `${environmentPaths.one(tenantId, environmentId)}/terraform-export/${encodeURIComponent(exportId)}`,
};

export const terraformExportErrorMessages = {
  notInAwsAccount:
    "This environment does not run in a cloud account: its services are simulated, so there is nothing in AWS to export as Terraform. Create an environment in a connected AWS account to export what the platform deploys there.",
  exportNotFound: "Terraform export not found",
  environmentGone: "The environment no longer runs in an AWS account.",
} as const;
