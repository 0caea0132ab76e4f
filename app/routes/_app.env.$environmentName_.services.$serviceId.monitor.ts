import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { servicePagePaths } from "~/features/services/paths";

/** SPEC §2.2 sub-page /services/{id}/monitor: the details page's matching tab. */
export function loader({ params }: LoaderFunctionArgs) {
  return redirect(
    servicePagePaths.details(params.environmentName ?? "", params.serviceId ?? "", { tab: "monitor" }),
  );
}
