import type { LoaderFunctionArgs } from "@remix-run/node";
import { startLogin } from "~/auth/auth.server";

/** /auth/signup?returnTo=/path: as /auth/login, but the identity provider opens its sign-up screen. */
export async function loader({ request }: LoaderFunctionArgs) {
  return startLogin(request, { screen: "signup" });
}
