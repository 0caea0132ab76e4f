import { strFromU8, strToU8, unzipSync, zipSync, type Zippable } from "fflate";

/**
 * Every entry carries this time, and entries are added in path order, so the same files always make the same
 * bytes (a reproducible archive). Zip times start in 1980 and are local: a day later fits in every time zone.
 */
const FIXED_ENTRY_TIME = new Date("1980-01-02T00:00:00Z");

/** Zips `files` (path → text) under one top-level folder, so unpacking never scatters files. */
export function createArchive(rootFolder: string, files: Record<string, string>): Uint8Array {
  const entries: Zippable = {};
  for (const path of Object.keys(files).sort()) {
    entries[`${rootFolder}/${path}`] = [strToU8(files[path] ?? ""), { mtime: FIXED_ENTRY_TIME }];
  }
  return zipSync(entries, { level: 9, mtime: FIXED_ENTRY_TIME });
}

/** The text files of an archive, path → content. */
export function readArchive(bytes: Uint8Array): Record<string, string> {
  const entries = unzipSync(bytes);
  return Object.fromEntries(Object.entries(entries).map(([path, content]) => [path, strFromU8(content)]));
}

/** `terraform-123456789012-eu-west-1`: the archive's folder and file name. */
export function archiveBaseName(accountId: string, region: string): string {
  return `terraform-${accountId}-${region}`;
}

/** `terraform-staging-eu-west-1`: the folder and file name of an environment's export. */
export function environmentArchiveBaseName(environmentName: string, region: string): string {
  return `terraform-${environmentName}-${region}`;
}
