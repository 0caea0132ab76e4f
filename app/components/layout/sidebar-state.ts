/**
 * The sidebar's collapsed state lives in a plain cookie that the browser writes when the toggle is used and
 * the root loader reads, so the first HTML of every page already has the right width (no flash).
 */
export const SIDEBAR_COOKIE = "sidebar";
const COLLAPSED = "collapsed";
const EXPANDED = "expanded";
const ONE_YEAR_SECONDS = 60 * 60 * 24 * 365;

export function isSidebarCollapsed(cookieHeader: string | null | undefined): boolean {
  if (!cookieHeader) return false;
  return cookieHeader.split(";").some((pair) => {
    const [name, ...value] = pair.trim().split("=");
    return name === SIDEBAR_COOKIE && value.join("=") === COLLAPSED;
  });
}

/** A `document.cookie` assignment remembering the state for a year. */
export function sidebarCookie(collapsed: boolean, { secure }: { secure: boolean }): string {
  const attributes = [`Path=/`, `Max-Age=${ONE_YEAR_SECONDS}`, "SameSite=Lax", ...(secure ? ["Secure"] : [])];
  return [`${SIDEBAR_COOKIE}=${collapsed ? COLLAPSED : EXPANDED}`, ...attributes].join("; ");
}
