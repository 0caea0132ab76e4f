export type EnvironmentResolution<E> =
  | { kind: "none" }
  | { kind: "unknown" }
  | { kind: "selected"; environment: E };

/**
 * SPEC §4 environment selection: the environment named in the URL, else the stored one, else the first.
 * A URL naming an environment that does not exist is "unknown" (the caller goes to the root); no environments
 * at all is "none" (the caller clears the stored selection and offers to create one).
 */
export function resolveEnvironment<E extends { name: string }>(
  environments: E[],
  { fromUrl, stored }: { fromUrl?: string | null; stored?: string | null },
): EnvironmentResolution<E> {
  if (environments.length === 0) return { kind: "none" };
  if (fromUrl) {
    const named = environments.find((environment) => environment.name === fromUrl);
    return named ? { kind: "selected", environment: named } : { kind: "unknown" };
  }
  const environment = environments.find((candidate) => candidate.name === stored) ?? environments[0];
  return environment ? { kind: "selected", environment } : { kind: "none" };
}
