import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { PlatformConfig } from "../lib/config";

/** Public paths the platform serves outside /api: a browser tab or the AWS console fetches them without a token. */
export const publicFilePaths = {
  archive: (jobId: string) => `/files/terraform/${jobId}.zip`,
  /** An environment's Terraform export (platform/terraform/environment-exports.ts). */
  environmentArchive: (exportId: string) => `/files/environment-terraform/${exportId}.zip`,
  /** The Terraform tool's read-only role (terraform/role-access.ts). */
  roleTemplate: () => "/files/cloud-connection/read-only-role.template.json",
  /** The role an AWS connection deploys through (connections/deploy-role.ts). */
  deployRoleTemplate: () => "/files/cloud-connection/deploy-role.template.json",
};

export type DownloadCheck = "valid" | "expired" | "invalid";

/**
 * Signed, expiring links to generated archives: `?expires=<epoch seconds>&signature=<HMAC-SHA256 of the job
 * id and the expiry>`. The signature is checked before the expiry, so a changed expiry is simply invalid.
 */
export function createDownloadLinks({
  publicUrl,
  secret,
  filePath = publicFilePaths.archive,
}: {
  publicUrl: string;
  secret: string;
  /** Where the link points for a job id: the marketplace tool's archives unless told otherwise. */
  filePath?: (jobId: string) => string;
}) {
  const sign = (jobId: string, expires: number) =>
    createHmac("sha256", secret).update(`${jobId}\n${expires}`).digest("base64url");

  return {
    create(jobId: string, expiresAt: Date): string {
      const expires = Math.floor(expiresAt.getTime() / 1000);
      const query = new URLSearchParams({ expires: String(expires), signature: sign(jobId, expires) });
      return `${publicUrl}${filePath(jobId)}?${query}`;
    },
    verify(
      jobId: string,
      expires: string | undefined,
      signature: string | undefined,
      now: Date,
    ): DownloadCheck {
      if (!expires || !signature || !/^\d{1,12}$/.test(expires)) return "invalid";
      const expected = Buffer.from(sign(jobId, Number(expires)));
      const given = Buffer.from(signature);
      if (expected.length !== given.length || !timingSafeEqual(expected, given)) return "invalid";
      return Number(expires) * 1000 <= now.getTime() ? "expired" : "valid";
    },
  };
}

export type DownloadLinks = ReturnType<typeof createDownloadLinks>;

/**
 * DOWNLOAD_SIGNING_SECRET, or a key generated once into DATA_DIR (mode 0600) so links survive restarts; the
 * in-memory platform of the tests gets a fresh key.
 */
export function downloadSigningSecret(config: Pick<PlatformConfig, "dataDir" | "terraform">): string {
  if (config.terraform.downloadSigningSecret) return config.terraform.downloadSigningSecret;
  if (config.dataDir === "memory") return randomBytes(32).toString("base64url");
  const file = path.join(config.dataDir, "download-signing.key");
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  mkdirSync(config.dataDir, { recursive: true });
  const secret = randomBytes(32).toString("base64url");
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}
