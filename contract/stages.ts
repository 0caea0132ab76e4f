import * as z from "zod";

export const stages = [
  "STAGE_COMPLETED",
  "STAGE_FAILED",
  "STAGE_IN_PROGRESS",
  "STAGE_SYNCING",
  "STAGE_QUEUED",
  "STAGE_UNSPECIFIED",
  "STAGE_DRAFT",
  "STAGE_READY_TO_DEPLOY",
  "STAGE_INFRASTRUCTURE_NOT_READY",
  "STAGE_CANCELING",
  "STAGE_CANCELED",
] as const;
export const stageSchema = z.enum(stages);
export type Stage = z.infer<typeof stageSchema>;
