import type { Environment } from "#contract/environments";

export type EnvironmentResolution =
  | { kind: "none" }
  | { kind: "unknown" }
  | { kind: "selected"; environment: Environment };

/**
 * SPEC §4 environment selection: the environment named in the URL, else the stored one, else the first.
 * A URL naming an environment that does not exist is "unknown" (the caller goes to the root); no environments
 * at all is "none" (the caller clears the stored selection and offers to create one).
 */
export function resolveEnvironment(
  environments: Environment[],
  { fromUrl, stored }: { fromUrl?: string | null; stored?: string | null },
): EnvironmentResolution {
  if (environments.length === 0) return { kind: "none" };
  if (fromUrl) {
    const named = environments.find((environment) => environment.name === fromUrl);
    return named ? { kind: "selected", environment: named } : { kind: "unknown" };
  }
  const environment = environments.find((candidate) => candidate.name === stored) ?? environments[0];
  return environment ? { kind: "selected", environment } : { kind: "none" };
}
