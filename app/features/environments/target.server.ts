import type { EnvironmentSummary } from "#contract/environments";
import type { PlatformClient } from "~/platform/client.server";
import { getConnection } from "~/platform/connections.server";
import { environmentTargetLabel } from "./target";

/**
 * The shell's line under the environment picker: where the current environment runs. Only an environment in a
 * cloud account costs a call (its connection's name); when that call fails the label keeps the provider's noun.
 */
export async function loadEnvironmentTarget(
  api: PlatformClient,
  tenantId: string,
  environment: Pick<EnvironmentSummary, "cloudProvider" | "cloudConnectionId">,
): Promise<string> {
  const { cloudConnectionId } = environment;
  const account = cloudConnectionId
    ? await getConnection(api, tenantId, cloudConnectionId).catch(() => null)
    : null;
  return environmentTargetLabel(environment, account?.name ?? null);
}
