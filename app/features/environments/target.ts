import type { CloudProvider } from "#contract/cloud-providers";
import type { EnvironmentSummary } from "#contract/environments";

/** What an account is called at each provider, so the label reads as the user's own console would. */
const accountNouns: Record<CloudProvider, string> = {
  AWS: "AWS account",
  GCP: "Google Cloud project",
  AZURE: "Azure subscription",
  CONTAINERS: "Container host",
};

/**
 * Where an environment runs, in the words every screen that shows it uses (issue 26): the simulated cloud must
 * never pass for a real one, and a real one is named by the connection it runs through (null: its name could
 * not be read, the noun alone still tells it is real).
 */
export function environmentTargetLabel(
  environment: Pick<EnvironmentSummary, "cloudProvider" | "cloudConnectionId">,
  accountName: string | null,
): string {
  if (environment.cloudConnectionId === null) return "Simulated cloud";
  const noun = accountNouns[environment.cloudProvider];
  return accountName ? `${noun} ${accountName}` : noun;
}

/** Each environment's target by id, for the screens that list several. */
export function environmentTargetLabels(
  environments: Pick<EnvironmentSummary, "id" | "cloudProvider" | "cloudConnectionId">[],
  accounts: { id: string; name: string }[],
): Record<string, string> {
  const names = new Map(accounts.map((account) => [account.id, account.name]));
  return Object.fromEntries(
    environments.map((environment) => [
      environment.id,
      environmentTargetLabel(environment, names.get(environment.cloudConnectionId ?? "") ?? null),
    ]),
  );
}

/**
 * The environment form's account field for a provider: optional for a cloud (none: the simulated one), required
 * for containers, which run on a container host or not at all.
 */
export function accountFieldOf(provider: CloudProvider): {
  label: string;
  optional: boolean;
  placeholder: string;
  nothingFound: string;
} {
  if (provider === "CONTAINERS") {
    return {
      label: "Container host",
      optional: false,
      placeholder: "Choose a container host",
      nothingFound: "No container host is connected",
    };
  }
  return {
    label: "Cloud account",
    optional: true,
    placeholder: `None: a simulated ${accountNouns[provider]}`,
    nothingFound: "No account of this provider is connected",
  };
}
