import type { MetricRange } from "#contract/service-catalogue";
import { servicePagePaths, type ServiceDetailOptions } from "../paths";

const serviceRoot = (environmentName: string, serviceId: string) =>
  `/env/${encodeURIComponent(environmentName)}/services/${encodeURIComponent(serviceId)}`;

/** The details page's own resource routes and its addresses with the extra query values of some tabs. */
export const serviceDetailsPaths = {
  /** The live tail's JSON: lines after `after` (a line id), or the last ones without it. */
  logsFeed: (environmentName: string, serviceId: string, after?: string) =>
    `${serviceRoot(environmentName, serviceId)}/logs-feed${after ? `?${new URLSearchParams({ after })}` : ""}`,
  /** One secret attribute's plaintext, loaded on "Reveal". */
  attribute: (environmentName: string, serviceId: string, attribute: string) =>
    `${serviceRoot(environmentName, serviceId)}/attributes/${encodeURIComponent(attribute)}`,
  /** The details page with a metrics range (monitoring tab). */
  monitoring: (environmentName: string, serviceId: string, range: MetricRange) =>
    withExtra(servicePagePaths.details(environmentName, serviceId, { tab: "monitoring" }), { range }),
  /** The details page with extra query values beside the shared ones. */
  details: (
    environmentName: string,
    serviceId: string,
    options: ServiceDetailOptions,
    extra: Record<string, string | undefined> = {},
  ) => withExtra(servicePagePaths.details(environmentName, serviceId, options), extra),
};

function withExtra(path: string, extra: Record<string, string | undefined>): string {
  const [pathname, search = ""] = path.split("?");
  const query = new URLSearchParams(search);
  for (const [name, value] of Object.entries(extra)) {
    if (value !== undefined && value !== "") query.set(name, value);
  }
  const text = query.toString();
  return text ? `${pathname}?${text}` : (pathname ?? path);
}
