import { redirect } from "@remix-run/node";

/** /organizations has one page, creating an organization (SPEC §2.1). */
export function loader() {
  return redirect("/organizations/create");
}
