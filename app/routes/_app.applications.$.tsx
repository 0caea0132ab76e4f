import type { LoaderFunctionArgs } from "@remix-run/node";
import { redirectToEnvironmentPage } from "~/features/services/environment-redirect.server";
import { servicePagePaths } from "~/features/services/paths";

/** /applications/{anything} → /env/{current}/applications/{anything}, such as /applications/list. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  return redirectToEnvironmentPage(request, (environmentName) =>
    servicePagePaths.underApplications(environmentName, params["*"] ?? ""),
  );
}
