import {
  accountPaths,
  cloudConnectionJobPaths,
  cloudConnectionJobSchema,
  initializeAccountResponseSchema,
  type CreateCloudConnectionJobRequest,
} from "#contract/tools";
import type { PlatformClient } from "./client.server";

/** POST account/initialize-account: the caller's tool account, created on first use (idempotent). */
export async function initializeAccount(api: PlatformClient) {
  const { account } = await api.post(accountPaths.initialize(), initializeAccountResponseSchema);
  return account;
}

/** Creates a cloud connection job: its redirect link deploys the read-only role, then Terraform is generated. */
export async function createCloudConnectionJob(
  api: PlatformClient,
  request: CreateCloudConnectionJobRequest,
) {
  return api.post(cloudConnectionJobPaths.create(), cloudConnectionJobSchema, request);
}

export async function getCloudConnectionJob(api: PlatformClient, jobId: string) {
  return api.get(cloudConnectionJobPaths.one(jobId), cloudConnectionJobSchema);
}
