import * as z from "zod";
import { confirmationByName } from "~/components/confirm-by-name";

/** Deleting an environment asks for its name, typed exactly, as the confirmation. */
export function deleteEnvironmentSchema(environmentName: string) {
  return z.object({ confirmation: confirmationByName(environmentName, "environment") });
}
