import * as z from "zod";

/** Deleting an environment asks for its name, typed exactly, as the confirmation. */
export function deleteEnvironmentSchema(environmentName: string) {
  return z.object({
    confirmation: z
      .string({ error: "Type the environment's name to confirm" })
      .refine((typed) => typed === environmentName, `Type ${environmentName} to confirm`),
  });
}
