/** The app's own addresses of the cloud connection and the marketplace tool. */
export const cloudConnectionPaths = {
  /** The AWS connect page (SPEC §2.1: the cloud-connection base path's index). */
  connect: "/cloud-connection",
  /** The job as JSON, polled by the page every 5 s. */
  job: (jobId: string) => `/cloud-connection/jobs/${encodeURIComponent(jobId)}`,
  marketplace: "/mp",
  generateTerraform: "/mp/generate-terraform",
};

/** The AWS console's IAM roles page in a region (the revoke dialog's link). */
export function iamRolesConsoleUrl(region: string): string {
  return `https://console.aws.amazon.com/iam/home?region=${encodeURIComponent(region)}#/roles`;
}
