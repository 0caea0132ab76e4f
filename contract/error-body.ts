import * as z from "zod";

/** The one error body every platform endpoint answers with. */
export const apiErrorSchema = z.object({
  message: z.string(),
  code: z.string().optional(),
  fieldErrors: z.record(z.string(), z.array(z.string())).optional(),
  /** On a 403 for a missing permission: which one (contract/permissions.ts). */
  permission: z.string().optional(),
});
export type ApiErrorBody = z.infer<typeof apiErrorSchema>;
