import { serviceErrorMessages } from "#contract/services";
import { diffValues, formatDiffValue } from "./config-diff";

/** One field where the user's value and the saved one differ after someone else saved first. */
export type ConflictChange = { path: string; yours: string; theirs: string };

/** What a form shows after its save was refused as stale: the new version to save on top of, and the differences. */
export type Conflict = { version: number; changes: ConflictChange[] };

/** Whether a refused write was refused because another write came first (409 with the stale-version message). */
export function isStaleVersion(error: { status: number; message: string }): boolean {
  return error.status === 409 && error.message === serviceErrorMessages.staleVersion;
}

/**
 * The conflict a form shows: every field whose submitted value differs from the value saved now (`path` relative
 * to the edited part), with the version to save on top of.
 */
export function conflictOf(yours: unknown, theirs: unknown, currentVersion: number): Conflict {
  return {
    version: currentVersion,
    changes: diffValues(yours, theirs).map((entry) => ({
      path: entry.path,
      yours: formatDiffValue(entry.before),
      theirs: formatDiffValue(entry.after),
    })),
  };
}
