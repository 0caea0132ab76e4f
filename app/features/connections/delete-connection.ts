import * as z from "zod";

/** Deleting a connection asks for its name, typed exactly, as the confirmation. */
export function deleteConnectionSchema(connectionName: string) {
  return z.object({
    intent: z.literal("delete"),
    confirmation: z
      .string({ error: "Type the connection's name to confirm" })
      .refine((typed) => typed === connectionName, `Type ${connectionName} to confirm`),
  });
}
