import { redirect } from "@remix-run/node";

/** Any path the app does not know goes to /404 (SPEC §2.1). */
export function loader() {
  return redirect("/404");
}
