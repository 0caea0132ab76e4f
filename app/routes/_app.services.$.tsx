import type { LoaderFunctionArgs } from "@remix-run/node";
import { redirectToEnvironmentPage } from "~/features/services/environment-redirect.server";
import { servicePagePaths } from "~/features/services/paths";

/**
 * /services/{anything} → /env/{current}/services/{anything}: a service's details (/services/{id}), a create page
 * (/services/{type}/create) and their sub-pages (SPEC §2.2), with the query string kept.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  return redirectToEnvironmentPage(request, (environmentName) =>
    servicePagePaths.underServices(environmentName, params["*"] ?? ""),
  );
}
