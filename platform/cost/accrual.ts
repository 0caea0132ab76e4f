import { eq, sql } from "drizzle-orm";
import type { Database } from "../db/index";
import { usageAccrual } from "../db/schema";
import { HOURS_PER_MONTH } from "../cloud/simulated/prices";

/**
 * The accrual (decision 035): usage segments (./usage.ts) priced hour by hour into the daily and monthly rollups.
 * Each run takes the hours that fully elapsed since the cursor (`usage_accrual.accrued_until`) and recomputes, from
 * the segments, the rows of every day and month those hours touch, up to the last full hour. Recomputing gives the
 * same rows however often it runs, and the cursor moves in the same transaction: a run that dies changes nothing,
 * the next one does its work (restart-safe, idempotent per hour).
 */

export const HOUR_MS = 3_600_000;
export const DAY_MS = 24 * HOUR_MS;

export const floorToHour = (at: Date) => new Date(Math.floor(at.getTime() / HOUR_MS) * HOUR_MS);
export const floorToDay = (at: Date) => new Date(Math.floor(at.getTime() / DAY_MS) * DAY_MS);
export const monthStartOf = (at: Date) => new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1));

/** The cursor: every hour before it is in the rollups; null before the first run. */
export async function accruedUntil(db: Database): Promise<Date | null> {
  const [row] = await db.select().from(usageAccrual).where(eq(usageAccrual.id, 1));
  return row?.accruedUntil ?? null;
}

/**
 * Closes the segments of services whose row is gone without the engine ending them (an environment deleted with
 * its services): they stop accruing at this run, at most one interval late.
 */
async function endOrphanedSegments(tx: Database, now: Date) {
  await tx.execute(sql`
    update usage_segments set ended_at = greatest(started_at, ${now.toISOString()}::timestamptz)
    where ended_at is null and not exists (select 1 from resources where resources.id = usage_segments.resource_id)`);
}

/**
 * Rolls usage up to the last full hour before `now`. `since` recomputes from that time even if the cursor is past
 * it (the demo seed and the bench write history behind the cursor). Returns the hours it accrued.
 */
export async function accrueUsage(
  db: Database,
  { now, since }: { now: Date; since?: Date },
): Promise<number> {
  const until = floorToHour(now);
  return db.transaction(async (tx) => {
    // Days and months are UTC whatever the server's time zone.
    await tx.execute(sql`set local timezone = 'UTC'`);
    await tx.execute(sql`insert into usage_accrual (id, accrued_until)
      select 1, coalesce(date_trunc('hour', min(started_at)), ${until.toISOString()}::timestamptz) from usage_segments
      on conflict (id) do nothing`);
    const [cursor] = await tx.select().from(usageAccrual).where(eq(usageAccrual.id, 1)).for("update");
    if (!cursor) throw new Error("the usage accrual cursor is missing");
    await endOrphanedSegments(tx, now);
    const start = since && since < cursor.accruedUntil ? floorToHour(since) : cursor.accruedUntil;
    if (start >= until) return 0;
    await rollUp(tx, floorToDay(start), until);
    await tx.update(usageAccrual).set({ accruedUntil: until }).where(eq(usageAccrual.id, 1));
    // After a backfill the planner needs to know the rollups' size to aggregate in memory (PGlite has no
    // autovacuum to tell it).
    if (until.getTime() - start.getTime() > DAY_MS) {
      await tx.execute(sql`analyze usage_daily, usage_daily_totals, usage_monthly`);
    }
    return (until.getTime() - start.getTime()) / HOUR_MS;
  });
}

/** Recomputes the daily rows of [fromDay, until) and the monthly rows of the months they are in. */
async function rollUp(tx: Database, fromDay: Date, until: Date) {
  const from = fromDay.toISOString();
  const to = until.toISOString();
  await tx.execute(
    sql`delete from usage_daily where day >= ${from}::timestamptz::date and day < ${to}::timestamptz`,
  );
  await tx.execute(sql`
    insert into usage_daily (day, resource_id, organization_id, environment_id, environment_name, service_name,
      service_type, cloud_provider, region, cloud_account, cost, hours, replica_hours, cpu_hours, memory_gb_hours, cpu_used_hours,
      memory_used_gb_hours)
    select days.day_start::date, s.resource_id, max(s.organization_id), (array_agg(s.environment_id))[1],
      max(s.environment_name), max(s.service_name), max(s.service_type), max(s.cloud_provider), max(s.region),
      max(s.cloud_account),
      sum(s.monthly_cost / ${HOURS_PER_MONTH} * o.hours), sum(o.hours), sum(s.replicas * o.hours),
      sum(s.cpu * s.replicas * o.hours), sum(s.memory_gb * s.replicas * o.hours),
      sum(s.cpu_used * s.replicas * o.hours), sum(s.memory_used_gb * s.replicas * o.hours)
    from generate_series(${from}::timestamptz, ${to}::timestamptz - interval '1 microsecond', interval '1 day')
      as days(day_start)
    join usage_segments s
      on s.started_at < least(days.day_start + interval '1 day', ${to}::timestamptz)
      and coalesce(s.ended_at, 'infinity') > days.day_start
    cross join lateral (
      select extract(epoch from (
        least(coalesce(s.ended_at, 'infinity'), days.day_start + interval '1 day', ${to}::timestamptz)
        - greatest(s.started_at, days.day_start))) / 3600 as hours
    ) o
    where o.hours > 0
    group by days.day_start, s.resource_id`);
  // Running totals per service, continuing from its last day before the recomputed ones.
  await tx.execute(sql`
    update usage_daily d set cumulative_cost = c.cumulative
    from (
      select x.day, x.resource_id,
        sum(x.cost) over (partition by x.resource_id order by x.day)
          + coalesce((select p.cumulative_cost from usage_daily p
              where p.resource_id = x.resource_id and p.day < ${from}::timestamptz::date
              order by p.day desc limit 1), 0) as cumulative
      from usage_daily x where x.day >= ${from}::timestamptz::date
    ) c
    where d.day = c.day and d.resource_id = c.resource_id`);
  await tx.execute(sql`delete from usage_daily_totals where day >= ${from}::timestamptz::date`);
  await tx.execute(sql`
    insert into usage_daily_totals (organization_id, day, environment_id, environment_name, service_type, cost)
    select organization_id, day, environment_id, max(environment_name), service_type, sum(cost)
    from usage_daily where day >= ${from}::timestamptz::date
    group by organization_id, day, environment_id, service_type`);
  const fromMonth = monthStartOf(fromDay).toISOString();
  await tx.execute(sql`delete from usage_monthly where month >= ${fromMonth}::timestamptz::date`);
  await tx.execute(sql`
    insert into usage_monthly (month, resource_id, organization_id, environment_id, environment_name, service_name,
      service_type, cost, hours)
    select date_trunc('month', day)::date, resource_id, max(organization_id), (array_agg(environment_id))[1],
      max(environment_name), max(service_name), max(service_type), sum(cost), sum(hours)
    from usage_daily where day >= ${fromMonth}::timestamptz::date
    group by date_trunc('month', day), resource_id`);
}
