import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { isOnboardingInProgress } from "#contract/onboarding-steps";
import { onboardingPages } from "~/features/onboarding/paths";
import { logDiagnostic } from "~/diagnostics.server";
import { environmentPagePaths } from "~/features/environments/paths";
import { redirectToEnvironmentPage } from "~/features/services/environment-redirect.server";
import { isPlatformError } from "~/platform/client.server";
import { getOnboarding } from "~/platform/onboarding.server";
import { requireOrganizationClient } from "~/platform/request.server";

/**
 * Home (SPEC §2.7): the onboarding overview while the organization's onboarding is in progress (the platform's
 * state decides, not the browser's mirror); otherwise the selected environment (stored, else the first), or
 * creating the first one. The workspace is loaded as the shell loads it, so an organization awaiting approval goes
 * to the pending screen, not an error.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const { api, tenantId, user, headers } = await requireOrganizationClient(request);
  const onboarding = await getOnboarding(api, tenantId).catch((error: unknown) => {
    // Home still opens (the environment) when the state cannot be read. A 403 (an organization awaiting approval,
    // a membership that ended) is the workspace's to answer, below.
    if (!isPlatformError(error) || error.status !== 403) {
      logDiagnostic({
        action: "onboarding-unavailable",
        level: "warn",
        request,
        tenantId,
        userId: user.sub,
        error,
      });
    }
    return null;
  });
  if (onboarding && isOnboardingInProgress(onboarding)) throw redirect(onboardingPages.overview, { headers });
  return redirectToEnvironmentPage(request, (environmentName) =>
    environmentPagePaths.section(environmentName),
  );
}
