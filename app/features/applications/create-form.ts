import { configureCoercion } from "@conform-to/zod/v4/future";
import * as z from "zod";
import { applicationConfigFieldsSchema, type ApplicationConfig } from "#contract/application-config";
import { serviceNameSchema, type CreateResourceRequest } from "#contract/services";

/**
 * How the application form's fields read: an unchecked switch (a port's "public") is false, and an empty text stays
 * "" so the contract's own rules say whether it may be empty (a domain, a pre-deploy command, Helm values); numbers
 * left empty are missing, so their "required" message shows.
 */
const { coerceFormValue } = configureCoercion({
  stripEmptyString: (value) => value,
  customize: (type) =>
    type._zod.def.type === "boolean" ? (value) => value === "on" || value === true : null,
});

/**
 * The create form as the browser checks it: the contract's fields without the Helm values' YAML check, which weighs
 * 30 KB and is imported lazily (decision 034); the action checks the whole of createApplicationFormSchema.
 */
export const applicationFormFieldsSchema = z.object({
  name: serviceNameSchema,
  config: applicationConfigFieldsSchema,
  intent: z.enum(["save", "deploy"]),
});
export type ApplicationForm = z.infer<typeof applicationFormFieldsSchema>;

/** `schema` (the fields' or the contract's createApplicationFormSchema) reading form data. */
export const applicationFormSchemaOf = <T extends z.ZodType>(schema: T) => coerceFormValue(schema);

/** Save → a draft; Deploy → create and deploy. */
export function createApplicationRequestOf(form: {
  name: string;
  config: ApplicationConfig;
  intent: "save" | "deploy";
}): CreateResourceRequest {
  return {
    serviceType: "application",
    name: form.name,
    config: form.config,
    launch: form.intent === "deploy",
  };
}
