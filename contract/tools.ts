import * as z from "zod";
import { awsRegionCodes } from "./aws-regions";
import { messages, patterns } from "./validation";

/**
 * The cloud connection job (SPEC §3, §4): INITIATING while the platform waits for the read-only role the
 * CloudFormation stack creates, STARTING_TERRAFORMER while it scans the account and writes Terraform, then
 * COMPLETED (with a download) or FAILED (with details).
 */
export const cloudConnectionJobStatuses = [
  "INITIATING",
  "STARTING_TERRAFORMER",
  "COMPLETED",
  "FAILED",
] as const;
export const cloudConnectionJobStatusSchema = z.enum(cloudConnectionJobStatuses);
export type CloudConnectionJobStatus = z.infer<typeof cloudConnectionJobStatusSchema>;

export function isFinishedJobStatus(status: CloudConnectionJobStatus): boolean {
  return status === "COMPLETED" || status === "FAILED";
}

export const AWS_ACCOUNT_ID_LABEL = "Account ID";
export const AWS_REGION_LABEL = "Region";

/** The account id as typed: required, exactly 12 digits (SPEC §5). */
export const awsAccountIdTextSchema = z
  .string({ error: messages.required(AWS_ACCOUNT_ID_LABEL) })
  .trim()
  .min(1, { error: messages.required(AWS_ACCOUNT_ID_LABEL), abort: true })
  .regex(patterns.accountId.regex, patterns.accountId.message);

export const awsRegionSchema = z.enum(awsRegionCodes, { error: messages.required(AWS_REGION_LABEL) });

const largestAccountId = 999_999_999_999;

/**
 * The create-job payload (SPEC §3): awsAccountID is a number, so an account id with leading zeros arrives
 * without them; `awsAccountIdText` pads it back to the 12 digits AWS uses.
 */
export const createCloudConnectionJobRequestSchema = z.object({
  awsAccountID: z
    .number({ error: patterns.accountId.message })
    .int(patterns.accountId.message)
    .min(0, patterns.accountId.message)
    .max(largestAccountId, patterns.accountId.message),
  awsAccountRegion: awsRegionSchema,
});
export type CreateCloudConnectionJobRequest = z.infer<typeof createCloudConnectionJobRequestSchema>;

export function awsAccountIdText(accountId: number): string {
  return String(accountId).padStart(12, "0");
}

export const cloudConnectionJobSchema = z.object({
  id: z.string(),
  status: cloudConnectionJobStatusSchema,
  /** Why the job failed; null otherwise. */
  details: z.string().nullable(),
  /** The AWS CloudFormation quick-create link that deploys the read-only role for this job. */
  redirectURL: z.string(),
  /** A signed, expiring link to the Terraform archive; null until the job is COMPLETED. */
  downloadURL: z.string().nullable(),
  /** When `downloadURL` stops working, in epoch seconds; 0 while there is no download. */
  downloadURLExpirationTime: z.number().int().nonnegative(),
  awsAccountID: z.string(),
  awsAccountRegion: z.string(),
  /** The IAM role the stack creates, named after the product; deleting it revokes the product's access. */
  roleName: z.string(),
  createdAt: z.string(),
});
export type CloudConnectionJob = z.infer<typeof cloudConnectionJobSchema>;

const generateTerraform = "/v2/tools/generate-terraform";

/** POST creates a job (a new external id and role), GET polls it (SPEC §7 Account and tools). */
export const generateTerraformPaths = {
  create: () => generateTerraform,
  one: (jobId: string) => `${generateTerraform}/${encodeURIComponent(jobId)}`,
};

/**
 * The cloud connection job is the Terraform generation job: connecting the account (the role) and generating
 * its Terraform are one resource with one id, so its create and poll endpoints are the tool's (ADR 006).
 */
export const cloudConnectionJobPaths = generateTerraformPaths;

/** The caller's account for the product's tools, created once by POST account/initialize-account. */
export const toolAccountSchema = z.object({
  userId: z.string(),
  email: z.string(),
  initializedAt: z.string(),
});
export const initializeAccountResponseSchema = z.object({ account: toolAccountSchema });

export const accountPaths = {
  initialize: () => "/account/initialize-account",
};

/** Codes of the tools' own errors, beside the shared ones in errors.ts. */
export const toolErrorCodes = {
  accountNotInitialized: "ACCOUNT_NOT_INITIALIZED",
  tooManyActiveJobs: "TOO_MANY_ACTIVE_JOBS",
  downloadExpired: "DOWNLOAD_EXPIRED",
  invalidDownloadSignature: "INVALID_DOWNLOAD_SIGNATURE",
} as const;

export const toolErrorMessages = {
  accountNotInitialized: "Initialize your account before connecting an AWS account",
  tooManyActiveJobs: (limit: number) =>
    `You already have ${limit} Terraform generations in progress. Wait for one to finish and try again.`,
  jobNotFound: "Terraform generation not found",
  downloadExpired: "This download link has expired. Generate new Terraform to download it again.",
  invalidDownloadSignature: "This download link is not valid",
} as const;
