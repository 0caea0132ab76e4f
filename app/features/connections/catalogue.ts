import {
  connectionCategories,
  connectionKindDefinitions,
  kindsOfCategory,
  type ConnectionCategory,
  type ConnectionKind,
  type ConnectionKindDefinition,
  type ConnectionUsage,
} from "#contract/connections";
import { isFeatureEnabled, type FeatureFlagValues } from "~/features/feature-flags/flag-values";

/** Whether the organization's flags offer a kind (Azure, GitHub, Slack and Teams each wait for their flag). */
export function isKindOffered(kind: ConnectionKind, flags: FeatureFlagValues): boolean {
  const { flag } = connectionKindDefinitions[kind];
  return flag === undefined || isFeatureEnabled(flags, flag);
}

/** The kinds a category's create page offers. */
export function offeredKinds(
  category: ConnectionCategory,
  flags: FeatureFlagValues,
): ConnectionKindDefinition[] {
  return kindsOfCategory(category).filter((definition) => isKindOffered(definition.kind, flags));
}

/** The categories with at least one kind to connect: the others are not shown at all. */
export function offeredCategories(flags: FeatureFlagValues): ConnectionCategory[] {
  return connectionCategories.filter((category) => offeredKinds(category, flags).length > 0);
}

/** What uses a connection, in words: "Environment production", "Observability of staging". */
export function usageLabel(usage: ConnectionUsage): string {
  switch (usage.type) {
    case "environment":
      return `Environment ${usage.name}`;
    case "observability":
      return `Observability of ${usage.environmentName ?? usage.name}`;
    case "connection":
      return `Connection ${usage.name}`;
    case "notifications":
      return usage.name;
  }
}

/** A secret field as the API describes it: set, with its last four characters to those who manage connections. */
export function secretHint(secret: { lastFour: string | null }): string {
  return secret.lastFour ? `Set, ends with ····${secret.lastFour}` : "Set";
}

/** "Just now", "5 minutes ago", "3 days ago": how long before `now` something happened. */
export function agoLabel(at: string, now: Date): string {
  const minutes = Math.floor((now.getTime() - new Date(at).getTime()) / 60_000);
  if (minutes < 1) return "Just now";
  if (minutes < 60) return `${minutes} minute${minutes === 1 ? "" : "s"} ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours} hour${hours === 1 ? "" : "s"} ago`;
  const days = Math.floor(hours / 24);
  return `${days} day${days === 1 ? "" : "s"} ago`;
}

/** What a connection's page lists under a repository: a registry's tags or a GitHub repository's branches. */
export function repositoryListing(kind: ConnectionKind): "tags" | "branches" | null {
  switch (kind) {
    case "DOCKER":
    case "GITHUB":
    case "AWS_ECR":
    case "GCP_ARTIFACT_REGISTRY":
      return "tags";
    case "VERSION_CONTROL_TYPE_GITHUB":
      return "branches";
    default:
      return null;
  }
}
