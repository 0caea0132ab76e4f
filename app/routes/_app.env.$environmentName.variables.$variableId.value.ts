import { data, type LoaderFunctionArgs } from "@remix-run/node";
import type { RevealedSecret } from "~/components/secret-value";
import { requireEnvironmentIdentity } from "~/features/workspace/workspace.server";
import { userMessageOf } from "~/platform/action-errors.server";
import { isPlatformError } from "~/platform/client.server";
import { revealVariableValue } from "~/platform/environments.server";

/**
 * One secret's plaintext, loaded when the user asks to reveal it. Never cached. A failure is answered as data
 * so the variables page shows it as a toast instead of its error page.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { api, tenantId, environment, headers } = await requireEnvironmentIdentity(
    request,
    params.environmentName,
  );
  headers.set("Cache-Control", "no-store");
  try {
    const value = await revealVariableValue(api, tenantId, environment.id, params.variableId ?? "");
    if (value === null) {
      return data<RevealedSecret>({ kind: "error", message: "This variable no longer exists" }, { headers });
    }
    return data<RevealedSecret>({ kind: "value", value }, { headers });
  } catch (error) {
    if (!isPlatformError(error)) throw error;
    const message = userMessageOf(error);
    return data<RevealedSecret>({ kind: "error", message }, { headers });
  }
}
