import { parseDocument } from "yaml";
import * as z from "zod";
import type { ChartSummary, ChartVersion } from "#contract/chart-repositories";
import { describeYamlError } from "#contract/helm-values";
import { PROVIDER_TIMEOUT_MS, unreachableMessage } from "../connections/http";
import { outboundFetch } from "../lib/egress";

/**
 * A Helm chart repository's index (https://helm.sh/docs/topics/chart_repository/#the-index-file): `index.yaml` at
 * the repository's URL, `apiVersion: v1` and `entries`, a list of versions per chart name. Fetched under the
 * egress policy (platform/lib/egress.ts): SPEC §9's 10 s time-out for the whole answer, body included, a size limit
 * read as the body arrives, redirects followed (repositories on GitHub Pages and S3 redirect; each hop's address is
 * checked again), and every failure a sentence for the user.
 */

/** Public indexes run to a few megabytes (Bitnami's, trimmed to six months of versions, is about 5 MB). */
export const CHART_INDEX_MAX_BYTES = 10 * 1024 * 1024;

/** A version as the index lists it: what the versions listing shows, and what the charts listing takes from it. */
export type IndexedVersion = ChartVersion & { icon: string | null; deprecated: boolean };

export type ChartIndex = {
  generatedAt: string | null;
  /** Chart name → versions, newest first. */
  charts: Map<string, IndexedVersion[]>;
};

/** The index could not be fetched or read; `message` says why, for the user. */
export class ChartIndexError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ChartIndexError";
  }
}

/** Where a repository keeps its index: `index.yaml` under its URL. */
export function indexUrlOf(repositoryUrl: string): URL {
  return new URL(`${repositoryUrl.replace(/\/+$/, "")}/index.yaml`);
}

// Go writes versions as strings; a hand-written index may leave `1.0` unquoted, which YAML reads as a number.
const text = (error: string) => z.union([z.string(), z.number()], { error }).transform(String);
const optionalText = text("must be text")
  .nullish()
  .transform((value) => value || null);

const entrySchema = z.object({
  version: text("each version must have a version number"),
  appVersion: optionalText,
  description: optionalText,
  created: optionalText,
  digest: optionalText,
  icon: optionalText,
  deprecated: z.boolean().nullish(),
  urls: z.array(z.string()).nullish(),
});

const indexSchema = z.object({
  apiVersion: z.string({ error: "it has no apiVersion" }),
  entries: z.record(z.string(), z.array(entrySchema).nullable(), {
    error: "its entries must map each chart's name to a list of versions",
  }),
  generated: optionalText,
});

/** Semantic versions compared as Helm does: numbers by value, a pre-release before its release. */
export function compareVersions(a: string, b: string): number {
  const parse = (version: string) => {
    const [core = "", pre = ""] = version.replace(/^v/, "").split("+")[0]?.split(/-(.*)/s) ?? [];
    return { numbers: core.split(".").map((part) => Number.parseInt(part, 10) || 0), pre };
  };
  const left = parse(a);
  const right = parse(b);
  for (let index = 0; index < 3; index++) {
    const difference = (left.numbers[index] ?? 0) - (right.numbers[index] ?? 0);
    if (difference) return difference;
  }
  if (left.pre === right.pre) return 0;
  if (!left.pre) return 1;
  if (!right.pre) return -1;
  return left.pre.localeCompare(right.pre, "en", { numeric: true });
}

const isPrerelease = (version: string) => /^v?[^-+]*-/.test(version);

/** Reads an index.yaml; a ChartIndexError says what is wrong with it. */
export function parseChartIndex(source: string): ChartIndex {
  const document = parseDocument(source, { prettyErrors: true, uniqueKeys: false });
  const [error] = document.errors;
  if (error) throw new ChartIndexError(`The index is not valid YAML: ${describeYamlError(error).message}.`);
  let value: unknown;
  try {
    value = document.toJS({ maxAliasCount: 1000 });
  } catch (thrown) {
    throw new ChartIndexError(`The index is not valid YAML: ${(thrown as Error).message}.`);
  }
  if (!value || typeof value !== "object" || Array.isArray(value)) {
    throw new ChartIndexError(
      "This is not a Helm repository index: the file is not a YAML mapping with apiVersion and entries.",
    );
  }
  const parsed = indexSchema.safeParse(value);
  if (!parsed.success) {
    const [issue] = parsed.error.issues;
    const where = issue?.path.length ? ` (at ${issue.path.join(".")})` : "";
    throw new ChartIndexError(`This is not a Helm repository index: ${issue?.message}${where}.`);
  }
  if (parsed.data.apiVersion !== "v1") {
    throw new ChartIndexError(
      `This is not a Helm repository index: its apiVersion is ${parsed.data.apiVersion}, not v1.`,
    );
  }
  const charts = new Map<string, IndexedVersion[]>();
  for (const [name, entries] of Object.entries(parsed.data.entries)) {
    const versions = (entries ?? [])
      .map((entry) => ({
        version: entry.version,
        appVersion: entry.appVersion,
        description: entry.description,
        created: entry.created,
        digest: entry.digest,
        urls: entry.urls ?? [],
        icon: entry.icon,
        deprecated: entry.deprecated ?? false,
      }))
      .sort((a, b) => compareVersions(b.version, a.version));
    if (versions.length) charts.set(name, versions);
  }
  return { generatedAt: parsed.data.generated, charts };
}

/** The charts by name, each with its latest version's details. */
export function chartSummariesOf(index: ChartIndex): ChartSummary[] {
  return [...index.charts.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .flatMap(([name, versions]) => {
      const latest = versions.find((entry) => !isPrerelease(entry.version)) ?? versions[0];
      if (!latest) return [];
      return [
        {
          name,
          latestVersion: latest.version,
          appVersion: latest.appVersion,
          description: latest.description,
          icon: latest.icon,
          deprecated: latest.deprecated,
          versionCount: versions.length,
        },
      ];
    });
}

const sizeOf = (bytes: number) =>
  bytes >= 1024 * 1024 ? `${Math.round(bytes / 1024 / 1024)} MB` : `${Math.round(bytes / 1024)} KB`;

/** The body, refused as soon as it passes `maxBytes` (by its Content-Length, or while it arrives). */
async function readLimited(response: Response, maxBytes: number, tooLarge: string): Promise<string> {
  const declared = Number(response.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > maxBytes) throw new ChartIndexError(tooLarge);
  if (!response.body) return "";
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let received = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    received += value.byteLength;
    if (received > maxBytes) {
      await reader.cancel();
      throw new ChartIndexError(tooLarge);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** Fetches and reads the index of the repository at `repositoryUrl` (http or https). */
export async function fetchChartIndex(
  repositoryUrl: string,
  {
    timeoutMs = PROVIDER_TIMEOUT_MS,
    maxBytes = CHART_INDEX_MAX_BYTES,
  }: { timeoutMs?: number; maxBytes?: number } = {},
): Promise<ChartIndex> {
  const url = indexUrlOf(repositoryUrl);
  const tooLarge = `The index at ${url.href} is larger than ${sizeOf(maxBytes)}, the most the platform reads.`;
  let body: string;
  try {
    const response = await outboundFetch(url, {
      headers: { Accept: "application/x-yaml, text/yaml, text/plain, */*" },
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (!response.ok) {
      await response.body?.cancel();
      throw new ChartIndexError(
        `${url.host} answered ${response.status}${response.statusText ? ` ${response.statusText}` : ""} for ` +
          `${url.pathname}: is the URL the repository's root, where its index.yaml is?`,
      );
    }
    body = await readLimited(response, maxBytes, tooLarge);
  } catch (error) {
    if (error instanceof ChartIndexError) throw error;
    throw new ChartIndexError(unreachableMessage(url, error, timeoutMs));
  }
  return parseChartIndex(body);
}

/** How long a fetched index serves the listings: SPEC §9 keeps fetched data 5 minutes. */
export const CHART_INDEX_CACHE_MS = 5 * 60 * 1000;
const CACHED_INDEXES = 50;

/**
 * Indexes fetched by repository, kept for CHART_INDEX_CACHE_MS so that choosing a chart and then its version costs
 * one fetch. Keyed by the repository's id and URL: access to the repository is checked before the cache is asked.
 */
export function createChartIndexReader({
  fetchIndex = fetchChartIndex,
  now = () => Date.now(),
}: { fetchIndex?: (url: string) => Promise<ChartIndex>; now?: () => number } = {}) {
  const cached = new Map<string, { at: number; index: ChartIndex }>();
  const keyOf = (repository: { id: string; url: string }) => `${repository.id} ${repository.url}`;
  function put(key: string, index: ChartIndex) {
    cached.delete(key);
    cached.set(key, { at: now(), index });
    // Maps iterate in insertion order: the first key is the oldest fetch.
    if (cached.size > CACHED_INDEXES) cached.delete(cached.keys().next().value ?? "");
  }
  return {
    /** Fetches a repository's index, past the cache (checking a URL before it is saved). */
    fetch: fetchIndex,
    async read(repository: { id: string; url: string }): Promise<ChartIndex> {
      const hit = cached.get(keyOf(repository));
      if (hit && now() - hit.at < CHART_INDEX_CACHE_MS) return hit.index;
      const index = await fetchIndex(repository.url);
      put(keyOf(repository), index);
      return index;
    },
    /** A repository whose index was just checked (POST) starts with it. */
    remember(repository: { id: string; url: string }, index: ChartIndex) {
      put(keyOf(repository), index);
    },
  };
}
export type ChartIndexReader = ReturnType<typeof createChartIndexReader>;
