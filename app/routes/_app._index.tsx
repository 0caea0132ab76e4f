import type { LoaderFunctionArgs } from "@remix-run/node";
import { environmentPagePaths } from "~/features/environments/paths";
import { redirectToEnvironmentPage } from "~/features/services/environment-redirect.server";

/**
 * Home: the selected environment (stored, else the first), or creating the first one. The workspace is loaded
 * as the shell loads it, so an organization awaiting approval goes to the pending screen, not an error.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  return redirectToEnvironmentPage(request, (environmentName) =>
    environmentPagePaths.section(environmentName),
  );
}
