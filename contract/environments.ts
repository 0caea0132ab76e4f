import { z } from "zod";
import { stageSchema } from "./stages";
import { patterns, requiredText } from "./validation";

export const environmentSchema = z.object({
  id: z.string(),
  name: z.string(),
  organizationId: z.string(),
  cloningStage: stageSchema,
  createdAt: z.string(),
});
export type Environment = z.infer<typeof environmentSchema>;

export const environmentListSchema = z.object({ environments: z.array(environmentSchema) });

export const createEnvironmentRequestSchema = z.object({
  name: requiredText("Name", { min: 2, max: 40 }).regex(
    patterns.lowercaseAlphanumericHyphen.regex,
    patterns.lowercaseAlphanumericHyphen.message,
  ),
});
export type CreateEnvironmentRequest = z.infer<typeof createEnvironmentRequestSchema>;

export const environmentResponseSchema = z.object({ environment: environmentSchema });

const organization = (tenantId: string) => `/v2/organizations/${encodeURIComponent(tenantId)}`;

export const environmentPaths = {
  list: (tenantId: string) => `${organization(tenantId)}/environments`,
};
