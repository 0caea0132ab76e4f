import { data, type LoaderFunctionArgs } from "@remix-run/node";
import { Outlet } from "@remix-run/react";
import { ErrorPage } from "~/components/error-page";
import { requireEnvironment } from "~/features/workspace/workspace.server";

/** Every /env/{environmentName}/... page: the named environment must exist (else back to the root). */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { environment, headers } = await requireEnvironment(request, params.environmentName);
  return data({ environment }, { headers });
}

export default function EnvironmentScope() {
  return <Outlet />;
}

export function ErrorBoundary() {
  return <ErrorPage />;
}
