import { Hono } from "hono";
import { apiErrorCodes, apiErrorMessages } from "#contract/errors";
import { toolErrorCodes, toolErrorMessages } from "#contract/tools";
import type { TerraformJobs } from "../terraform/jobs";
import { publicFilePaths } from "../terraform/download-links";
import { readOnlyRoleTemplate } from "../terraform/role-access";
import { handleError, handleNotFound } from "./errors";

const archivePattern = /^([0-9a-f-]{36})\.zip$/;

/**
 * Files served without a token, outside /api: the signed archive downloads (a browser tab opens them) and the
 * CloudFormation template of the read-only role (the AWS console fetches it). A download link answers 403 when
 * its signature does not match and 410 once it has expired.
 */
export function createFilesApp({ jobs }: { jobs: TerraformJobs }): Hono {
  const app = new Hono();
  app.onError(handleError);
  app.notFound(handleNotFound);

  app.get(publicFilePaths.roleTemplate(), (c) => {
    c.header("Cache-Control", "public, max-age=300");
    c.header("Access-Control-Allow-Origin", "*");
    return c.json(readOnlyRoleTemplate());
  });

  app.get("/files/terraform/:file", async (c) => {
    const jobId = archivePattern.exec(c.req.param("file"))?.[1];
    if (!jobId) return c.json({ message: apiErrorMessages.notFound, code: apiErrorCodes.notFound }, 404);
    const download = await jobs.download(jobId, c.req.query("expires"), c.req.query("signature"));
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
  });

  return app;
}
