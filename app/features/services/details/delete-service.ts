import * as z from "zod";

/** Deleting a service asks for its name, typed exactly, as the confirmation. */
export function deleteServiceSchema(serviceName: string) {
  return z.object({
    confirmation: z
      .string({ error: "Type the service's name to confirm" })
      .refine((typed) => typed === serviceName, `Type ${serviceName} to confirm`),
  });
}
