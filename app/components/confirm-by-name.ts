import * as z from "zod";

/** The label of the field where the name is typed, and the message when what was typed is not that name. */
export function typeNameToConfirm(name: string): string {
  return `Type ${name} to confirm`;
}

/**
 * The `confirmation` field of a form that acts only once `name` has been typed exactly (a deletion); `thing`
 * ("service", "connection", ...) names what it is in the message for a missing field.
 */
export function confirmationByName(name: string, thing: string) {
  return z
    .string({ error: `Type the ${thing}'s name to confirm` })
    .refine((typed) => typed === name, typeNameToConfirm(name));
}
