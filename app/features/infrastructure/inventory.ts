import { creatableServiceTypes, type ServiceType } from "#contract/service-catalogue";
import { type ResourceSummary } from "#contract/services";
import type { ServiceListFilters } from "~/features/services/paths";

/** The infrastructure list fits on one page up to the platform's largest page. */
export const INFRASTRUCTURE_PAGE_SIZE = 200;

/** What a row of the infrastructure list shows, shaped on the server (the age is computed there). */
export type InfrastructureRow = Pick<
  ResourceSummary,
  "id" | "name" | "serviceType" | "stage" | "region" | "monthlyCost" | "message" | "failedSince"
> & { size: string; age: string };

const DAY_MS = 86_400_000;

/** How long ago `iso` was, in the largest whole unit: "just now", "5 minutes", "3 hours", "12 days". */
export function ageOf(iso: string, now: Date): string {
  const elapsed = now.getTime() - new Date(iso).getTime();
  if (!Number.isFinite(elapsed)) return "—";
  const plural = (count: number, unit: string) => `${count} ${unit}${count === 1 ? "" : "s"}`;
  if (elapsed < 60_000) return "just now";
  if (elapsed < 3_600_000) return plural(Math.floor(elapsed / 60_000), "minute");
  if (elapsed < DAY_MS) return plural(Math.floor(elapsed / 3_600_000), "hour");
  return plural(Math.floor(elapsed / DAY_MS), "day");
}

/** "cache.t4g.small" with 3 nodes → "cache.t4g.small × 3". */
export function sizeOf({ size, replicas }: Pick<ResourceSummary, "size" | "replicas">): string {
  return replicas > 1 ? `${size} × ${replicas}` : size;
}

export function infrastructureRowOf(summary: ResourceSummary, now: Date): InfrastructureRow {
  const { id, name, serviceType, stage, region, monthlyCost, message, failedSince } = summary;
  return {
    id,
    name,
    serviceType,
    stage,
    region,
    monthlyCost,
    message,
    failedSince,
    size: sizeOf(summary),
    age: ageOf(summary.createdAt, now),
  };
}

/** The rows by type, in the order the create menu offers the types, each type's rows by name. */
export function groupByType<T extends { serviceType: ServiceType; name: string }>(
  rows: readonly T[],
): { serviceType: ServiceType; rows: T[] }[] {
  return creatableServiceTypes
    .map((serviceType) => ({
      serviceType,
      rows: rows
        .filter((row) => row.serviceType === serviceType)
        .sort((a, b) => a.name.localeCompare(b.name)),
    }))
    .filter((group) => group.rows.length > 0);
}

/** The infrastructure list's filters: any type but application, which has its own pages. */
export function infrastructureFiltersOf<T extends ServiceListFilters>(filters: T): T {
  return filters.serviceType === "application" ? { ...filters, serviceType: undefined } : filters;
}
