import { data, type LoaderFunctionArgs } from "@remix-run/node";
import type { RevealedSecret } from "~/components/secret-value";
import { requireEnvironmentIdentity } from "~/features/workspace/workspace.server";
import { userMessageOf } from "~/platform/action-errors.server";
import { isPlatformError } from "~/platform/client.server";
import { revealServiceAttribute } from "~/platform/services.server";

/**
 * One secret attribute's plaintext, loaded when the user asks to reveal it; never cached and never part of the
 * details page's data. A failure is answered as data so the page shows it as a toast.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { api, tenantId, environment, headers } = await requireEnvironmentIdentity(
    request,
    params.environmentName,
  );
  headers.set("Cache-Control", "no-store");
  try {
    const value = await revealServiceAttribute(
      api,
      tenantId,
      environment.id,
      params.serviceId ?? "",
      params.attribute ?? "",
    );
    return data<RevealedSecret>({ kind: "value", value }, { headers });
  } catch (error) {
    if (!isPlatformError(error)) throw error;
    return data<RevealedSecret>({ kind: "error", message: userMessageOf(error) }, { headers });
  }
}
