import { getZodConstraint } from "@conform-to/zod/v4";
import type * as z from "zod";

type Constraint = ReturnType<typeof getZodConstraint>[string];

// Wrappers that let a value be missing (the field is then never required), and those that only pass it through.
const optionalWrappers = new Set(["optional", "default", "prefault", "catch"]);
const transparentWrappers = new Set(["nullable", "readonly", "nonoptional"]);

type Def = {
  type: string;
  innerType?: z.ZodType;
  in?: z.ZodType;
  shape?: Record<string, z.ZodType>;
  element?: z.ZodType;
  options?: z.ZodType[];
  getter?: () => z.ZodType;
};
const defOf = (schema: z.ZodType) => schema._zod.def as unknown as Def;

/** The schemas a field name (`config.ports[].port`) reaches, with whether a wrapper on the way lets it be missing. */
function fieldsAt(
  schema: z.ZodType,
  path: string[],
  optional = false,
): { schema: z.ZodType; optional: boolean }[] {
  const def = defOf(schema);
  if (optionalWrappers.has(def.type) && def.innerType) return fieldsAt(def.innerType, path, true);
  if (transparentWrappers.has(def.type) && def.innerType) return fieldsAt(def.innerType, path, optional);
  if (def.type === "lazy" && def.getter) return fieldsAt(def.getter(), path, optional);
  if (def.type === "union" && def.options)
    return def.options.flatMap((each) => fieldsAt(each, path, optional));
  const [next, ...rest] = path;
  if (next === undefined) return [{ schema, optional }];
  // A field's structure is what its pipe reads (`z.string().trim().pipe(z.guid())`).
  if (def.type === "pipe" && def.in) return fieldsAt(def.in, path, optional);
  if (def.type === "object" && def.shape) {
    const field = def.shape[next];
    return field ? fieldsAt(field, rest, optional) : [];
  }
  if (def.type === "array" && def.element && next === "[]") return fieldsAt(def.element, rest, optional);
  return [];
}

/** Whether a form must fill the field in: its schema refuses both an empty text and nothing at all. */
function refusesEmpty({ schema, optional }: { schema: z.ZodType; optional: boolean }): boolean {
  if (optional) return false;
  // A switch (a checkbox) is off or on: off is a value, not an empty field.
  if (fieldsAt(schema, []).some((each) => defOf(each.schema).type === "boolean")) return false;
  return !schema.safeParse("").success && !schema.safeParse(undefined).success;
}

/**
 * conform's constraints of `schema`, each field's `required` (its asterisk and the browser's check) read from the
 * schema itself: required when its schema refuses an empty value. getZodConstraint alone calls every string
 * without .optional() required, even one that may be empty (a domain), and no field of a union's branch (an image).
 */
export function formConstraint(schema: z.ZodType): Record<string, Constraint> {
  return Object.fromEntries(
    Object.entries(getZodConstraint(schema)).map(([name, rule]) => {
      const fields = fieldsAt(schema, name.replaceAll("[]", ".[]").split("."));
      return [name, fields.length ? { ...rule, required: fields.every(refusesEmpty) } : rule];
    }),
  );
}
