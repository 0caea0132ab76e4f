import { Hono, type Context } from "hono";
import { apiErrorCodes, apiErrorMessages } from "#contract/errors";
import { toolErrorCodes, toolErrorMessages } from "#contract/tools";
import type { Database } from "../db/index";
import type { Operations } from "../operations/operations";
import type { ArchiveDownload, TerraformJobs } from "../terraform/jobs";
import { publicFilePaths } from "../terraform/download-links";
import { readOnlyRoleTemplate } from "../terraform/role-access";
import { deployRoleTemplate } from "../connections/deploy-role";
import { handleError, handleNotFound } from "./errors";

const archivePattern = /^([0-9a-f-]{36})\.zip$/;

/** A signed download's answer: the zip, 403 for a signature that does not match, 410 once expired. */
function sendDownload(c: Context, download: ArchiveDownload) {
  switch (download.kind) {
    case "invalid":
      return c.json(
        {
          message: toolErrorMessages.invalidDownloadSignature,
          code: toolErrorCodes.invalidDownloadSignature,
        },
        403,
      );
    case "expired":
      return c.json(
        { message: toolErrorMessages.downloadExpired, code: toolErrorCodes.downloadExpired },
        410,
      );
    case "missing":
      return c.json({ message: apiErrorMessages.notFound, code: apiErrorCodes.notFound }, 404);
    case "file":
      return c.body(download.bytes as Uint8Array<ArrayBuffer>, 200, {
        "Content-Type": "application/zip",
        "Content-Disposition": `attachment; filename="${download.fileName}"`,
        "Cache-Control": "private, no-store",
        "X-Content-Type-Options": "nosniff",
      });
  }
}

/**
 * Files served without a token, outside /api: the signed archive downloads of the marketplace tool and of
 * environments' Terraform exports (a browser tab opens them) and the
 * CloudFormation templates of the Terraform tool's read-only role and of the AWS connections' deploy role (the AWS
 * console fetches them). A download link answers 403 when
 * its signature does not match and 410 once it has expired.
 */
export function createFilesApp({
  jobs,
  db,
  engine,
}: {
  jobs: TerraformJobs;
  db: Database;
  /** Its environments' Terraform exports. */
  engine: Pick<Operations, "terraformExports" | "now">;
}): Hono {
  const app = new Hono();
  app.onError(handleError);
  app.notFound(handleNotFound);

  app.get(publicFilePaths.roleTemplate(), (c) => {
    c.header("Cache-Control", "public, max-age=300");
    c.header("Access-Control-Allow-Origin", "*");
    return c.json(readOnlyRoleTemplate());
  });
  app.get(publicFilePaths.deployRoleTemplate(), (c) => {
    c.header("Cache-Control", "public, max-age=300");
    c.header("Access-Control-Allow-Origin", "*");
    return c.json(deployRoleTemplate());
  });

  app.get("/files/terraform/:file", async (c) => {
    const jobId = archivePattern.exec(c.req.param("file"))?.[1];
    if (!jobId) return c.json({ message: apiErrorMessages.notFound, code: apiErrorCodes.notFound }, 404);
    return sendDownload(c, await jobs.download(jobId, c.req.query("expires"), c.req.query("signature")));
  });

  app.get("/files/environment-terraform/:file", async (c) => {
    const exportId = archivePattern.exec(c.req.param("file"))?.[1];
    if (!exportId) return c.json({ message: apiErrorMessages.notFound, code: apiErrorCodes.notFound }, 404);
    const link = { expires: c.req.query("expires"), signature: c.req.query("signature") };
    return sendDownload(c, await engine.terraformExports.download(db, exportId, link, engine.now()));
  });

  return app;
}
