import type { LoaderFunctionArgs } from "@remix-run/node";
import { redirectToEnvironmentPage } from "~/features/services/environment-redirect.server";
import { servicePagePaths } from "~/features/services/paths";

/** /infrastructure/overview → /env/{current}/infrastructure/overview (SPEC §2.2). */
export async function loader({ request }: LoaderFunctionArgs) {
  return redirectToEnvironmentPage(request, (environmentName) =>
    servicePagePaths.infrastructureOverview(environmentName),
  );
}
