import * as z from "zod";
import { type ServiceType } from "#contract/service-catalogue";
import { changeLabel } from "#contract/change-words";
import { serviceConfigSchemas } from "#contract/service-configs";
import { configOptions } from "#contract/config-labels";

/** How one configuration key is edited: the generic renderer picks the input from the schema's type. */
export type ConfigFieldKind =
  | { kind: "select"; options: { value: string; label: string }[] }
  | { kind: "switch" }
  | { kind: "number"; min?: number; max?: number }
  | { kind: "text" }
  | { kind: "list" }
  | { kind: "hidden" };
export type ConfigField = { name: string; label: string } & ConfigFieldKind;

/** Keys set by other flows than this form (a serverless archive comes from its upload): kept, not edited. */
const hiddenKeys = new Set(["uploadId"]);

function unwrap(schema: z.ZodType): z.ZodType {
  let current = schema;
  while (
    current instanceof z.ZodOptional ||
    current instanceof z.ZodDefault ||
    current instanceof z.ZodNullable ||
    current instanceof z.ZodPrefault
  ) {
    current = current.unwrap() as z.ZodType;
  }
  return current;
}

function kindOf(key: string, schema: z.ZodType): ConfigFieldKind {
  if (hiddenKeys.has(key)) return { kind: "hidden" };
  const inner = unwrap(schema);
  if (inner instanceof z.ZodEnum)
    return { kind: "select", options: configOptions(key, inner.options.map(String)) };
  if (inner instanceof z.ZodBoolean) return { kind: "switch" };
  if (inner instanceof z.ZodNumber) {
    const kind: ConfigFieldKind = { kind: "number" };
    if (inner.minValue !== null && Number.isFinite(inner.minValue)) kind.min = inner.minValue;
    if (inner.maxValue !== null && Number.isFinite(inner.maxValue)) kind.max = inner.maxValue;
    return kind;
  }
  if (inner instanceof z.ZodArray) return { kind: "list" };
  return { kind: "text" };
}

function shapeOf(serviceType: ServiceType): Record<string, z.ZodType> {
  return serviceConfigSchemas[serviceType].shape as Record<string, z.ZodType>;
}

/** The fields of a type's configuration form, in the schema's order. */
export function configFields(serviceType: ServiceType): ConfigField[] {
  return Object.entries(shapeOf(serviceType)).map(([name, schema]) => ({
    name,
    label: changeLabel(serviceType, `config.${name}`),
    ...kindOf(name, schema),
  }));
}

/** "a.example.com, b.example.com" → ["a.example.com", "b.example.com"] (a list field's text). */
export function splitList(value: unknown): unknown {
  if (value === undefined || value === null) return [];
  if (typeof value !== "string") return value;
  return value
    .split(/[\n,]/)
    .map((part) => part.trim())
    .filter(Boolean);
}

/**
 * The type's configuration schema as a form submits it: an unchecked switch sends nothing (off), a text that may
 * be empty sends nothing (empty), and a list is typed as comma-separated text. The contract's own rules, including
 * those across fields, still apply.
 */
export function configFormSchema(serviceType: ServiceType) {
  const contract = serviceConfigSchemas[serviceType] as unknown as z.ZodType<
    Record<string, unknown>,
    Record<string, unknown>
  >;
  const shape = shapeOf(serviceType);
  const formShape = Object.fromEntries(
    Object.entries(shape).map(([key, schema]) => {
      const { kind } = kindOf(key, schema);
      if (kind === "switch") return [key, z.boolean().default(false)];
      if (kind === "list") return [key, z.preprocess(splitList, schema)];
      if (kind === "text" && schema.safeParse("").success) return [key, schema.default("")];
      return [key, schema];
    }),
  );
  // The form's shape coerces each field; the contract's schema then checks the whole (cross-field rules).
  return z.object(formShape).pipe(contract);
}

/** A configuration as the form's default values: lists become their comma-separated text. */
export function configFormDefaults(serviceType: ServiceType, config: Record<string, unknown>) {
  const fields = configFields(serviceType);
  return Object.fromEntries(
    fields.map((field) => {
      const value = config[field.name];
      if (field.kind === "list") return [field.name, Array.isArray(value) ? value.join(", ") : ""];
      return [field.name, value];
    }),
  );
}
