// The stages the engine moves a service or environment through, free of zod: the services list filters by them on
// every visit (the schema is stage-schema.ts, decision 064).
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
export type Stage = (typeof stages)[number];

export const isStage = (value: unknown): value is Stage => stages.includes(value as Stage);
