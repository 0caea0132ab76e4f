import { eq } from "drizzle-orm";
import type { CloudProvider } from "#contract/cloud-providers";
import { type ServiceType } from "#contract/service-catalogue";
import { defaultServiceSettings, type ServiceSettings } from "#contract/services";
import { defaultServiceConfigs } from "#contract/service-configs";
import type { Database } from "../db/index";
import { environments, organizations, resources, usageSegments } from "../db/schema";
import type { CloudDriver, DriverResource } from "../cloud/driver";
import type { EnvironmentRow } from "../environments/records";
import { settingsOf } from "../services/records";
import { accrueUsage, DAY_MS, floorToDay, floorToHour, HOUR_MS } from "../cost/accrual";
import { segmentOf, type NewSegment } from "../cost/usage";

/**
 * The demo's cost history (issue 16): 90 days of usage for an organization's seeded services, written as segments
 * in a few bulk inserts and accrued at once. Applications scale out on weekdays from 08:00 to 20:00 UTC (one more
 * instance for `web`, two more for `api`); `api` ran one instance until 40 days ago, when it was scaled up to its
 * current two; a reports database in production was deleted 35 days ago and a preview database in staging 12 days
 * ago. The services' running segments (what the seed's deployments opened) are replaced by this history, which
 * ends with a running segment at each service's current size.
 */

export const DEMO_HISTORY_DAYS = 90;
const SCALE_UP_DAYS_AGO = 40;
const PEAK_HOURS = { from: 8, to: 20 } as const;
const PEAK_EXTRA_INSTANCES: Record<string, number> = { web: 1, api: 2 };

type Shape = { config: Record<string, unknown>; settings: ServiceSettings };
type Service = DriverResource & { environment: EnvironmentRow };

/** A deleted service of the history: never a row, only usage. */
const deletedServices: {
  environmentName: string;
  name: string;
  serviceType: ServiceType;
  config: Record<string, unknown>;
  fromDaysAgo: number;
  toDaysAgo: number;
}[] = [
  {
    environmentName: "production",
    name: "reports-db",
    serviceType: "database",
    config: { ...defaultServiceConfigs.database, instanceSize: "db.m7g.large", storageGb: 200 },
    fromDaysAgo: DEMO_HISTORY_DAYS,
    toDaysAgo: 35,
  },
  {
    environmentName: "staging",
    name: "preview-db",
    serviceType: "database",
    config: { ...defaultServiceConfigs.database, instanceSize: "db.t4g.small" },
    fromDaysAgo: 75,
    toDaysAgo: 12,
  },
];

/** Stable ids for the deleted services, so the history is the same on every seed. */
const deletedServiceIds: Record<string, string> = {
  "reports-db": "0b7e2c1a-5d34-4f6e-9a2b-3c4d5e6f7a01",
  "preview-db": "0b7e2c1a-5d34-4f6e-9a2b-3c4d5e6f7a02",
};

function withInstances(shape: Shape, instances: number): Shape {
  return {
    ...shape,
    settings: { ...shape.settings, scaling: { ...shape.settings.scaling, minInstances: instances } },
  };
}

/** The shape of an application at `at`: its instances then, by the scale-up and the weekday peak. */
function applicationShapeAt(service: Service, current: Shape, at: Date, now: Date): Shape {
  let instances = current.settings.scaling.minInstances;
  if (service.name === "api" && now.getTime() - at.getTime() > SCALE_UP_DAYS_AGO * DAY_MS) instances = 1;
  const weekday = at.getUTCDay() >= 1 && at.getUTCDay() <= 5;
  const hour = at.getUTCHours();
  if (weekday && hour >= PEAK_HOURS.from && hour < PEAK_HOURS.to)
    instances += PEAK_EXTRA_INSTANCES[service.name] ?? 0;
  return withInstances(current, instances);
}

/** Writes the history of `organizationId`'s services up to `now` and accrues it. */
export async function backfillDemoUsage(
  tx: Database,
  { organizationId, driver, now }: { organizationId: string; driver: Pick<CloudDriver, "price">; now: Date },
): Promise<number> {
  const [organization] = await tx.select().from(organizations).where(eq(organizations.id, organizationId));
  if (!organization) throw new Error(`no organization ${organizationId}`);
  const environmentRows = await tx
    .select()
    .from(environments)
    .where(eq(environments.tenantId, organization.tenantId));
  const byName = new Map(environmentRows.map((row) => [row.name, row]));
  const services: Service[] = [];
  for (const environment of environmentRows) {
    const rows = await tx.select().from(resources).where(eq(resources.environmentId, environment.id));
    for (const row of rows) {
      services.push({
        id: row.id,
        name: row.name,
        serviceType: row.serviceType as ServiceType,
        config: row.config,
        settings: settingsOf(row),
        environmentName: environment.name,
        cloudProvider: environment.cloudProvider as CloudProvider,
        region: environment.region,
        environment,
      });
    }
  }
  const end = floorToHour(now);
  const start = new Date(floorToDay(now).getTime() - DEMO_HISTORY_DAYS * DAY_MS);
  const segments: NewSegment[] = [];
  const segment = (service: Service, shape: Shape, from: Date, to: Date | null) =>
    segments.push({
      ...segmentOf(
        driver,
        { ...service, ...shape },
        { organizationId, environment: service.environment },
        from,
      ),
      endedAt: to,
    });

  for (const service of services) {
    const current: Shape = { config: service.config, settings: service.settings };
    if (service.serviceType !== "application") {
      segment(service, current, start, null);
      continue;
    }
    // Hour by hour, a new segment wherever the instances change; the last one runs on.
    let from = start;
    let shape = applicationShapeAt(service, current, start, now);
    for (let at = start.getTime() + HOUR_MS; at <= end.getTime(); at += HOUR_MS) {
      const next = applicationShapeAt(service, current, new Date(at), now);
      if (next.settings.scaling.minInstances === shape.settings.scaling.minInstances) continue;
      segment(service, shape, from, new Date(at));
      from = new Date(at);
      shape = next;
    }
    segment(service, shape, from, null);
  }
  for (const deleted of deletedServices) {
    const environment = byName.get(deleted.environmentName);
    if (!environment) continue;
    const service: Service = {
      id: deletedServiceIds[deleted.name] ?? deleted.name,
      name: deleted.name,
      serviceType: deleted.serviceType,
      config: deleted.config,
      settings: defaultServiceSettings,
      environmentName: environment.name,
      cloudProvider: environment.cloudProvider as CloudProvider,
      region: environment.region,
      environment,
    };
    segment(
      service,
      { config: deleted.config, settings: defaultServiceSettings },
      new Date(start.getTime() + (DEMO_HISTORY_DAYS - deleted.fromDaysAgo) * DAY_MS),
      new Date(floorToDay(now).getTime() - deleted.toDaysAgo * DAY_MS + 14 * HOUR_MS),
    );
  }

  await tx.delete(usageSegments).where(eq(usageSegments.organizationId, organizationId));
  for (let index = 0; index < segments.length; index += 500) {
    await tx.insert(usageSegments).values(segments.slice(index, index + 500));
  }
  await accrueUsage(tx, { now, since: start });
  return segments.length;
}
