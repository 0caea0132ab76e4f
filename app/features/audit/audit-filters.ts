import { auditEventQuerySchema, type AuditEventQuery, type AuditFilter } from "#contract/audit";
import { nulCharacterFieldErrors } from "#contract/validation";
import { toIsoDateTime } from "~/components/utc-date-time";

/** The filter form's values as the page shows them again (strings, as they came in the query). */
export type AuditFilterValues = {
  userId: string;
  action: string;
  environmentId: string;
  from: string;
  to: string;
};

export type AuditSearch =
  | { kind: "query"; query: AuditEventQuery & { page: number }; values: AuditFilterValues }
  | { kind: "invalid"; fieldErrors: Record<string, string[]>; values: AuditFilterValues };

const fieldLabels: Record<string, string> = { from: "From", to: "To", page: "Page" };

/**
 * The audit log's query from the page's query string: the filter form's fields (pickers' values read as UTC) and
 * `page`, checked with the contract's schema; bad values become field errors keyed like the form's fields.
 */
export function buildAuditSearch(search: URLSearchParams): AuditSearch {
  const values: AuditFilterValues = {
    userId: search.get("userId") ?? "",
    action: search.get("action") ?? "",
    environmentId: search.get("environmentId") ?? "",
    from: search.get("from") ?? "",
    to: search.get("to") ?? "",
  };
  // The platform refuses U+0000 in any text; say so on the field rather than fail the page with its 400.
  const nulErrors = nulCharacterFieldErrors(values);
  if (Object.keys(nulErrors).length > 0) return { kind: "invalid", fieldErrors: nulErrors, values };
  const parsed = auditEventQuerySchema.safeParse({
    userId: values.userId || undefined,
    action: values.action || undefined,
    environmentId: values.environmentId || undefined,
    from: values.from ? toIsoDateTime(values.from) : undefined,
    to: values.to ? toIsoDateTime(values.to) : undefined,
    page: search.get("page") || undefined,
  });
  if (!parsed.success) {
    const fieldErrors: Record<string, string[]> = {};
    for (const issue of parsed.error.issues) {
      const key = String(issue.path[0] ?? "action");
      const message = issue.message.startsWith("must ")
        ? `${fieldLabels[key] ?? key} ${issue.message}`
        : issue.message;
      fieldErrors[key] ??= [message];
    }
    return { kind: "invalid", fieldErrors, values };
  }
  return { kind: "query", query: parsed.data, values };
}

/** The filters alone (no page), for the CSV export of the filtered set. */
export function filterOf({ userId, action, environmentId, from, to }: AuditEventQuery): AuditFilter {
  return { userId, action, environmentId, from, to };
}

/** The page's own query string with `changes` applied (empty values dropped). */
export function searchWith(values: AuditFilterValues, changes: Record<string, string | number>): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries({ ...values, ...changes })) {
    if (value !== "" && value !== undefined) params.set(name, String(value));
  }
  const query = params.toString();
  return query ? `?${query}` : "";
}

/** Where the page lives, and its CSV export. */
export const auditLogPaths = {
  page: "/settings/audit-log",
  export: "/settings/audit-log/export",
};
