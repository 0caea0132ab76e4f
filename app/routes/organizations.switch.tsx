import { data, redirect, type ActionFunctionArgs } from "@remix-run/node";
import { getEnv } from "~/env.server";
import { usableOrganizations } from "~/features/organizations/current-organization";
import { requirePlatformClient } from "~/platform/request.server";

/** SPEC §9: the previous-domain cookie lives 7 days. */
const PREVIOUS_DOMAIN_MAX_AGE = 7 * 24 * 60 * 60;

/**
 * Switches the current organization: locally (the session remembers it), or, with APP_BASE_DOMAIN configured,
 * by moving to the organization's subdomain while a cookie records the domain the user came from.
 */
export async function action({ request }: ActionFunctionArgs) {
  const { session, organizations, headers, saveSession } = await requirePlatformClient(request);
  const organizationId = String((await request.formData()).get("organizationId") ?? "");
  const target = usableOrganizations(organizations).find(
    (organization) => organization.id === organizationId,
  );
  if (!target) {
    return data({ message: "You are not a member of this organization." }, { status: 400, headers });
  }
  session.set("organizationId", target.id);
  session.unset("environment");
  await saveSession();

  const { baseDomain, production } = getEnv();
  if (!baseDomain) return redirect("/", { headers });
  const current = new URL(request.url);
  const destination = new URL(`${current.protocol}//${target.name}.${baseDomain}/`);
  destination.port = current.port;
  destination.searchParams.set("switchOrg", target.id);
  const secure = production ? "; Secure" : "";
  headers.append(
    "Set-Cookie",
    `previous-domain=${encodeURIComponent(current.host)}; Domain=.${baseDomain}; Path=/; Max-Age=${PREVIOUS_DOMAIN_MAX_AGE}; SameSite=Lax${secure}`,
  );
  return redirect(destination.toString(), { headers });
}
