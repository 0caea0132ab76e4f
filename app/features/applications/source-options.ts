import { useFetcher } from "@remix-run/react";
import { useEffect } from "react";
import { applicationPagePaths } from "./paths";

/** What the source-options route answers: the names to choose from, or why the provider gave none. */
export type SourceOptions = { options: string[]; error?: string };

export type SourceList = "repositories" | "tags" | "branches" | "charts" | "chart-versions";

/**
 * The choices of one list of a source (a connection's repositories, a repository's tags, ...), loaded when what it
 * depends on is chosen; `query` null while it is not.
 */
export function useSourceOptions(
  environmentName: string,
  list: SourceList,
  query: Record<string, string> | null,
) {
  const fetcher = useFetcher<SourceOptions>();
  const { load } = fetcher;
  const search = query ? new URLSearchParams({ list, ...query }).toString() : null;
  useEffect(() => {
    if (search) load(`${applicationPagePaths.sourceOptions(environmentName)}?${search}`);
  }, [environmentName, load, search]);
  return {
    options: search ? (fetcher.data?.options ?? []) : [],
    error: search ? fetcher.data?.error : undefined,
    loading: fetcher.state !== "idle",
  };
}
