import { redirect } from "@remix-run/node";
import { settingsPaths } from "~/features/settings/paths";

/** /settings opens its first page, the members. */
export function loader() {
  return redirect(settingsPaths.members);
}
