import type { LoaderFunctionArgs } from "@remix-run/node";
import { startLogin } from "~/auth/auth.server";

/** /auth/login?returnTo=/path: straight on to the identity provider; this screen shows nothing itself. */
export async function loader({ request }: LoaderFunctionArgs) {
  return startLogin(request);
}
