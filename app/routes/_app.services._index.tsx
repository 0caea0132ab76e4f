import type { LoaderFunctionArgs } from "@remix-run/node";
import { redirectToEnvironmentPage } from "~/features/services/environment-redirect.server";
import { servicePagePaths } from "~/features/services/paths";

/** /services → /env/{current}/services, keeping filters such as ?serviceType=database (SPEC §2.2). */
export async function loader({ request }: LoaderFunctionArgs) {
  return redirectToEnvironmentPage(request, (environmentName) => servicePagePaths.list(environmentName));
}
