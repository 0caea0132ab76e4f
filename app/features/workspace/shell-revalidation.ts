import type { ShouldRevalidateFunction } from "@remix-run/react";

/**
 * The shell's shouldRevalidate. Its data (the tenant, the environment names, the feature flags) changes with the
 * organization (`?switchOrg=`), with the environment in the path and with what forms submit; not while a page
 * polls (a revalidation of the same address) nor when a page changes its own query (tabs, filters, log
 * searches), so those ask the platform only for the page's data.
 */
export const shouldRevalidate: ShouldRevalidateFunction = ({
  currentUrl,
  nextUrl,
  formMethod,
  defaultShouldRevalidate,
}) => {
  const submitted = formMethod !== undefined && formMethod.toUpperCase() !== "GET";
  const samePath = currentUrl.pathname === nextUrl.pathname;
  if (!submitted && samePath && !nextUrl.searchParams.has("switchOrg")) return false;
  return defaultShouldRevalidate;
};
