import * as z from "zod";
import { confirmationByName } from "~/components/confirm-by-name";

/** Deleting a service asks for its name, typed exactly, as the confirmation. */
export function deleteServiceSchema(serviceName: string) {
  return z.object({ confirmation: confirmationByName(serviceName, "service") });
}
