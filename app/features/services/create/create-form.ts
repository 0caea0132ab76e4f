import * as z from "zod";
import { creatableServiceTypes, type CreatableServiceType } from "#contract/service-catalogue";
import { serviceNameSchema, type CreateResourceRequest } from "#contract/services";
import { serviceConfigSchemas, type ServiceConfig } from "#contract/service-configs";

/** SPEC §4: Save keeps a draft; Create creates and deploys. */
export const createIntents = ["save", "create"] as const;
export type CreateIntent = (typeof createIntents)[number];

export function parseCreatableServiceType(value: string | undefined): CreatableServiceType | null {
  return creatableServiceTypes.find((type) => type === value) ?? null;
}

/**
 * The contract's config schema as a form reads it: an unchecked switch sends nothing (false), and a text field
 * the contract allows to be empty sends nothing too (""); conform turns both into a missing value. Everything
 * else, refinements included, is the contract's own rule and message.
 */
function formConfigSchemaOf(schema: z.ZodObject): z.ZodObject {
  const shape = Object.fromEntries(
    Object.entries(schema.shape).map(([key, field]) => {
      if (field instanceof z.ZodBoolean) return [key, field.default(false)];
      if (field instanceof z.ZodString && field.safeParse("").success) return [key, field.default("")];
      if (field instanceof z.ZodArray) return [key, field.default([])];
      return [key, field];
    }),
  );
  // The contract's refinements (engine and version, minimum and maximum, ...) apply to the rebuilt object too.
  const checks = (schema._zod.def.checks ?? []) as z.core.$ZodCheck<Record<string, unknown>>[];
  const rebuilt = z.object(shape);
  return checks.length ? rebuilt.check(...checks) : rebuilt;
}

const formConfigSchemas = new Map<CreatableServiceType, z.ZodObject>();

/** The config part of a create form of `serviceType`. */
export function formConfigSchema<T extends CreatableServiceType>(serviceType: T) {
  let schema = formConfigSchemas.get(serviceType);
  if (!schema) {
    schema = formConfigSchemaOf(serviceConfigSchemas[serviceType] as z.ZodObject);
    formConfigSchemas.set(serviceType, schema);
  }
  return schema as unknown as z.ZodType<ServiceConfig<T>>;
}

/** The create form of `serviceType`: conform names its config fields `config.engine`, `config.storageGb`, ... */
export function createServiceFormSchema<T extends CreatableServiceType>(serviceType: T) {
  return z.object({
    name: serviceNameSchema,
    config: formConfigSchema(serviceType),
    intent: z.enum(createIntents, { error: "Choose Save or Create" }),
  });
}
/** The form as a page whose type is only known at run time sees it. */
export type AnyCreateServiceForm = { name: string; config: AnyConfig; intent: CreateIntent };
/** Every config value is one of these. */
export type AnyConfig = Record<string, string | number | boolean | string[]>;

/** What the platform is asked: Save → a draft (launch false), Create → deploy (launch true). */
export function createRequestOf(
  serviceType: CreatableServiceType,
  form: { name: string; config: object; intent: CreateIntent },
): CreateResourceRequest {
  return {
    serviceType,
    name: form.name,
    config: { ...form.config },
    launch: form.intent === "create",
  };
}

/** The config a cost estimate can be asked for before a serverless archive is uploaded. */
export function estimateConfigSchema(serviceType: CreatableServiceType): z.ZodType<Record<string, unknown>> {
  const schema = formConfigSchema(serviceType) as unknown as z.ZodObject;
  return serviceType === "serverless" ? schema.omit({ uploadId: true }) : schema;
}
