import * as z from "zod";
import { confirmationByName } from "~/components/confirm-by-name";

/** Deleting a connection asks for its name, typed exactly, as the confirmation. */
export function deleteConnectionSchema(connectionName: string) {
  return z.object({
    intent: z.literal("delete"),
    confirmation: confirmationByName(connectionName, "connection"),
  });
}
