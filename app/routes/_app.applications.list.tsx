import type { LoaderFunctionArgs } from "@remix-run/node";
import { redirectToEnvironmentPage } from "~/features/services/environment-redirect.server";
import { servicePagePaths } from "~/features/services/paths";

/** /applications/list → /env/{current}/applications/list. */
export async function loader({ request }: LoaderFunctionArgs) {
  return redirectToEnvironmentPage(request, (environmentName) =>
    servicePagePaths.applications(environmentName, "list"),
  );
}
