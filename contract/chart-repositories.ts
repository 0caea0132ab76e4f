import * as z from "zod";
import { servicePaths } from "./services";

/**
 * The charts of a chart repository (issue 15, SPEC §7 chart-repositories): the platform fetches the repository's
 * Helm index (`<url>/index.yaml`) and lists its charts and each chart's versions, for the Helm chart source of an
 * application (behind the private-chart-apps flag). The repositories themselves (GET/POST chart-repositories) are in
 * services.ts.
 */

export const chartSummarySchema = z.object({
  name: z.string(),
  /** The highest version that is not a pre-release (the highest pre-release when there is nothing else). */
  latestVersion: z.string(),
  appVersion: z.string().nullable(),
  description: z.string().nullable(),
  icon: z.string().nullable(),
  deprecated: z.boolean(),
  /** How many versions the index lists. */
  versionCount: z.number().int(),
});
export type ChartSummary = z.infer<typeof chartSummarySchema>;

/** GET chart-repositories/{id}/charts: the charts by name. */
export const chartListSchema = z.object({
  charts: z.array(chartSummarySchema),
  /** When the repository generated its index (its `generated` field), if it says. */
  generatedAt: z.string().nullable(),
});

export const chartVersionSchema = z.object({
  version: z.string(),
  appVersion: z.string().nullable(),
  description: z.string().nullable(),
  created: z.string().nullable(),
  digest: z.string().nullable(),
  /** Where the chart's archive is, as the index gives it (absolute, or relative to the repository's URL). */
  urls: z.array(z.string()),
});
export type ChartVersion = z.infer<typeof chartVersionSchema>;

/** GET chart-repositories/{id}/charts/{chart}/versions: newest version first. */
export const chartVersionListSchema = z.object({
  chart: z.string(),
  versions: z.array(chartVersionSchema),
});

const repository = (t: string, w: string, repositoryId: string) =>
  `${servicePaths.chartRepositories(t, w)}/${encodeURIComponent(repositoryId)}`;

export const chartRepositoryPaths = {
  charts: (t: string, w: string, repositoryId: string) => `${repository(t, w, repositoryId)}/charts`,
  versions: (t: string, w: string, repositoryId: string, chart: string) =>
    `${repository(t, w, repositoryId)}/charts/${encodeURIComponent(chart)}/versions`,
};

/**
 * What the platform answers (errors use contract/errors.ts's body):
 * - POST chart-repositories with an http(s) URL first fetches its index: 400 with fieldErrors.url saying why when
 *   the host cannot be reached, does not answer within 10 s, answers no index, or an index that is not valid or too
 *   large; nothing is stored then. An oci:// URL is an OCI registry, which has no index, and is stored as it is.
 * - GET .../charts → chartListSchema; GET .../charts/{chart}/versions → chartVersionListSchema (404 for a chart the
 *   index does not list). Both 404 with chartRepositoryMessages.flagOff while the private-chart-apps flag is off,
 *   404 for a repository of another environment, 409 with chartRepositoryMessages.ociHasNoIndex for an OCI one,
 *   and 502 with the reason when the index cannot be fetched or read.
 */
export const chartRepositoryMessages = {
  notFound: "Chart repository not found",
  chartNotFound: "This repository's index has no chart with this name",
  flagOff: "Helm chart applications are not enabled for this organization.",
  ociHasNoIndex:
    "An OCI registry has no index to list charts from: type the chart's name and version as its registry shows them.",
} as const;
