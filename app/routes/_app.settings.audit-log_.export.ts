import type { LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { errorMessages } from "#contract/errors";
import { buildAuditSearch, filterOf } from "~/features/audit/audit-filters";
import { exportAuditEvents } from "~/platform/audit.server";
import { isPlatformError } from "~/platform/client.server";
import { requireOrganizationClient } from "~/platform/request.server";

/**
 * The audit log's filtered set as a CSV download (the platform writes the file; this passes it on). Bad filters go
 * back to the page, which shows them as field errors; a failed export is a plain answer saying why, since a
 * download has no page of its own to show an error on.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const { api, tenantId, organization, headers } = await requireOrganizationClient(request);
  const search = buildAuditSearch(new URL(request.url).searchParams);
  if (search.kind === "invalid")
    throw redirect(`/settings/audit-log${new URL(request.url).search}`, { headers });
  try {
    const csv = await exportAuditEvents(api, tenantId, filterOf(search.query));
    headers.set("Content-Type", "text/csv; charset=utf-8");
    headers.set("Content-Disposition", `attachment; filename="audit-log-${organization.name}.csv"`);
    headers.set("Cache-Control", "no-store");
    return new Response(csv, { headers });
  } catch (error) {
    if (!isPlatformError(error)) throw error;
    if (error.status === 401 || error.status === 403) throw redirect("/401", { headers });
    headers.set("Content-Type", "text/plain; charset=utf-8");
    return new Response(`The audit log could not be exported: ${error.message || errorMessages.generic}`, {
      status: error.status >= 400 ? error.status : 502,
      headers,
    });
  }
}
