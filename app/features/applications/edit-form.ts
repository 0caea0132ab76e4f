import * as z from "zod";
import {
  applicationConfigFieldsSchema,
  defaultApplicationConfig,
  type ApplicationConfig,
} from "#contract/application-config";
import { applicationFormSchemaOf } from "./create-form";

/**
 * Editing an application on its details page (configuration tab): the same configuration as the create form, the
 * service's version it edits, and Save draft or Save and deploy. The browser checks the contract's fields without
 * the Helm values' YAML check (decision 034); the action checks the contract's whole applicationConfigSchema.
 */
export const editIntentSchema = z.enum(["save-config", "save-config-draft"]);
export const versionSchema = z.number().int().positive();

export const editApplicationFieldsSchema = z.object({
  intent: editIntentSchema,
  version: versionSchema,
  config: applicationConfigFieldsSchema,
});
export type EditApplicationForm = z.infer<typeof editApplicationFieldsSchema>;

/** The browser's check of the form's data. */
export const editApplicationFormSchema = applicationFormSchemaOf(editApplicationFieldsSchema);

/**
 * A stored configuration as the form's starting values: every field the form has, the defaults filling what an
 * older configuration lacks (the platform answers the current shape; this keeps the form whole regardless).
 */
export function editableApplicationConfig(config: Record<string, unknown>): ApplicationConfig {
  const merged = { ...defaultApplicationConfig, ...config } as ApplicationConfig;
  return {
    ...merged,
    domain: { ...defaultApplicationConfig.domain, ...merged.domain },
    healthCheck: { ...defaultApplicationConfig.healthCheck, ...merged.healthCheck },
  };
}
