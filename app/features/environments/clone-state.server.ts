import type { EnvironmentSummary } from "#contract/environments";
import { errorCodes } from "#contract/errors";
import { isPlatformError, type PlatformClient } from "~/platform/client.server";
import { getCloneState } from "~/platform/environments.server";
import { throwRouteError } from "~/platform/route-errors.server";

/**
 * SPEC §4: the cloning state is fetched only while the environment's stage is in progress; otherwise (and when
 * the platform has no clone for it) there is none.
 */
export async function loadCloneState(
  api: PlatformClient,
  tenantId: string,
  environment: Pick<EnvironmentSummary, "id" | "cloningStage">,
  headers: Headers,
) {
  if (environment.cloningStage !== "STAGE_IN_PROGRESS") return null;
  try {
    return await getCloneState(api, tenantId, environment.id);
  } catch (error) {
    if (isPlatformError(error) && error.status === 404) return null;
    throwRouteError(error, errorCodes.workspaceListFetch, headers);
  }
}
