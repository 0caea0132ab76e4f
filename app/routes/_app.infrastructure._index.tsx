import type { LoaderFunctionArgs } from "@remix-run/node";
import { redirectToEnvironmentPage } from "~/features/services/environment-redirect.server";
import { servicePagePaths } from "~/features/services/paths";

/** /infrastructure → /env/{current}/infrastructure, keeping filters such as ?stage=STAGE_FAILED (SPEC §2.2). */
export async function loader({ request }: LoaderFunctionArgs) {
  return redirectToEnvironmentPage(request, (environmentName) =>
    servicePagePaths.infrastructure(environmentName),
  );
}
