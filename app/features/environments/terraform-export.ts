import type { TerraformExport } from "#contract/terraform-exports";

/** What the export route answers the page: the export, or the platform's refusal in plain words. */
export type TerraformExportResult =
  | { kind: "export"; terraformExport: TerraformExport }
  | { kind: "error"; message: string };

/** How often the page asks how the export is doing while it runs. */
export const TERRAFORM_EXPORT_POLL_MS = 2_000;

export type TerraformExportView =
  | { phase: "idle" }
  | { phase: "running"; exportId: string }
  | { phase: "ready"; exportId: string; downloadURL: string; expiresAt: number }
  | { phase: "failed"; message: string };

/**
 * What the button shows, from the answer of the start (`started`) and of the latest poll (`polled`): a poll of an
 * earlier export is ignored, and a completed export whose link has gone reads as failed, saying to export again.
 */
export function terraformExportView(
  started: TerraformExportResult | undefined,
  polled: TerraformExportResult | undefined,
): TerraformExportView {
  if (!started) return { phase: "idle" };
  if (started.kind === "error") return { phase: "failed", message: started.message };
  const exportId = started.terraformExport.id;
  if (polled?.kind === "error") return { phase: "failed", message: polled.message };
  const current =
    polled?.kind === "export" && polled.terraformExport.id === exportId
      ? polled.terraformExport
      : started.terraformExport;
  switch (current.status) {
    case "IN_PROGRESS":
      return { phase: "running", exportId };
    case "FAILED":
      return { phase: "failed", message: current.details ?? "The export stopped." };
    case "COMPLETED":
      return current.downloadURL
        ? {
            phase: "ready",
            exportId,
            downloadURL: current.downloadURL,
            expiresAt: current.downloadURLExpirationTime,
          }
        : { phase: "failed", message: "The download link has expired: export again." };
  }
}
