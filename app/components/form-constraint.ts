import { getZodConstraint } from "@conform-to/zod/v4";
import type * as z from "zod";

type Constraint = ReturnType<typeof getZodConstraint>[string];
type Def = {
  type: string;
  innerType?: z.ZodType;
  options?: z.ZodType[];
  in?: z.ZodType;
  shape?: Record<string, z.ZodType>;
  element?: z.ZodType;
};

// Wrappers that let a value be missing: a field under one is never required.
const optionalWrappers = ["optional", "default", "prefault", "catch"];

/**
 * Whether each schema a field name's path (`config`, `ports`, `[]`, `port`) reaches requires a value: it refuses an
 * empty text. A switch (a boolean) is off or on, never empty. A union's branches each have their say.
 */
function requiredAt(schema: z.ZodType, path: string[], optional = false): boolean[] {
  const def = schema._zod.def as unknown as Def;
  if (def.innerType) return requiredAt(def.innerType, path, optional || optionalWrappers.includes(def.type));
  if (def.options) return def.options.flatMap((branch) => requiredAt(branch, path, optional));
  const [next, ...rest] = path;
  if (next === undefined) return [!optional && def.type !== "boolean" && !schema.safeParse("").success];
  // A field's shape is what its pipe reads (`z.string().trim().pipe(z.guid())`).
  if (def.in) return requiredAt(def.in, path, optional);
  const child = next === "[]" ? def.element : def.shape?.[next];
  return child ? requiredAt(child, rest, optional) : [];
}

/**
 * conform's constraints of `schema`, each field's `required` (its asterisk and the browser's check) read from the
 * schema itself: required when its schema refuses an empty value. getZodConstraint alone calls every string
 * without .optional() required, even one that may be empty (a domain), and no field of a union's branch (an image).
 */
export function formConstraint(schema: z.ZodType): Record<string, Constraint> {
  return Object.fromEntries(
    Object.entries(getZodConstraint(schema)).map(([name, rule]) => {
      const required = requiredAt(schema, name.replaceAll("[]", ".[]").split("."));
      return [name, required.length ? { ...rule, required: required.every(Boolean) } : rule];
    }),
  );
}
