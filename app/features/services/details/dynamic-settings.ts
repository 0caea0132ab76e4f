/**
 * The dynamic feature settings of the service pages (SPEC §9 "dynamic feature-setting keys"). The spec names the
 * keys but not their values; these are the product's choices, named after the keys.
 */

/** health-metrics fetch interval: how often the monitor tab refreshes its current values. */
export const HEALTH_METRICS_FETCH_INTERVAL_MS = 30_000;
/** tail-logs fetch interval: how often the live tail asks for new lines. */
export const TAIL_LOGS_FETCH_INTERVAL_MS = 3000;
/** tail-logs log limit: the most lines the live tail keeps (older ones drop off the top). */
export const TAIL_LOGS_LOG_LIMIT = 500;
/** search-logs log limit: the most results one log search shows. */
export const SEARCH_LOGS_LOG_LIMIT = 200;
/** infinite-scroll log limit: lines fetched per page when scrolling back (the platform's page size). */
export const INFINITE_SCROLL_LOG_LIMIT = 100;
/** surrounding-logs log limit: lines shown around one result. */
export const SURROUNDING_LOGS_LOG_LIMIT = 50;
