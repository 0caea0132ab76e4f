import { redirect } from "@remix-run/node";
import { environmentPagePaths } from "~/features/environments/paths";
import { loadWorkspace } from "~/features/workspace/workspace.server";

/**
 * The top-level /services and /applications addresses: the same page of the current environment (SPEC §4
 * selection), with the query string kept; with no environment, the create-environment page (SPEC §2.1).
 */
export async function redirectToEnvironmentPage(
  request: Request,
  pathOf: (environmentName: string) => string,
): Promise<never> {
  const { currentEnvironment, headers } = await loadWorkspace(request);
  if (!currentEnvironment) throw redirect(environmentPagePaths.create, { headers });
  const { search } = new URL(request.url);
  const path = pathOf(currentEnvironment.name);
  throw redirect(search ? `${path}${path.includes("?") ? `&${search.slice(1)}` : search}` : path, {
    headers,
  });
}
