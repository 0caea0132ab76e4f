import { describe, expect, it } from "vitest";
import type { TerraformExport } from "#contract/terraform-exports";
import { terraformExportView, type TerraformExportResult } from "./terraform-export";

const running: TerraformExport = {
  id: "e1",
  environmentId: "w1",
  status: "IN_PROGRESS",
  details: null,
  downloadURL: null,
  downloadURLExpirationTime: 0,
  resourceCount: null,
  createdAt: "2026-01-01T00:00:00Z",
};
const result = (terraformExport: Partial<TerraformExport>): TerraformExportResult => ({
  kind: "export",
  terraformExport: { ...running, ...terraformExport },
});

describe("the Export as Terraform button", () => {
  it("offers the export before one was started", () => {
    expect(terraformExportView(undefined, undefined)).toEqual({ phase: "idle" });
  });

  it("shows progress while the export runs, from its start until a poll says it is done", () => {
    expect(terraformExportView(result({}), undefined)).toEqual({ phase: "running", exportId: "e1" });
    expect(terraformExportView(result({}), result({}))).toEqual({ phase: "running", exportId: "e1" });
  });

  it("offers the download once completed, with when its link expires", () => {
    const done = result({
      status: "COMPLETED",
      downloadURL: "http://platform.test/files/environment-terraform/e1.zip?expires=1&signature=s",
      downloadURLExpirationTime: 1_800_000_000,
    });
    expect(terraformExportView(result({}), done)).toEqual({
      phase: "ready",
      exportId: "e1",
      downloadURL: "http://platform.test/files/environment-terraform/e1.zip?expires=1&signature=s",
      expiresAt: 1_800_000_000,
    });
  });

  it("ignores the poll of an earlier export after a new one started", () => {
    const earlier = result({ id: "e0", status: "FAILED", details: "old failure" });
    expect(terraformExportView(result({}), earlier)).toEqual({ phase: "running", exportId: "e1" });
  });

  it("says in plain words why the export was refused or failed", () => {
    const refused: TerraformExportResult = {
      kind: "error",
      message: "This environment does not run in a cloud account: …",
    };
    expect(terraformExportView(refused, undefined)).toEqual({
      phase: "failed",
      message: "This environment does not run in a cloud account: …",
    });
    const failed = result({ status: "FAILED", details: "Scanning sqs failed: AccessDenied: not allowed" });
    expect(terraformExportView(result({}), failed)).toEqual({
      phase: "failed",
      message: "Scanning sqs failed: AccessDenied: not allowed",
    });
    expect(terraformExportView(result({}), { kind: "error", message: "Terraform export not found" })).toEqual(
      {
        phase: "failed",
        message: "Terraform export not found",
      },
    );
  });

  it("asks for a new export once a completed export's link has expired", () => {
    expect(terraformExportView(result({}), result({ status: "COMPLETED", downloadURL: null }))).toEqual({
      phase: "failed",
      message: "The download link has expired: export again.",
    });
  });
});
