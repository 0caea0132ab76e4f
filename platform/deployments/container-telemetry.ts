import { and, asc, eq, gt, gte, lte } from "drizzle-orm";
import { metricRanges } from "#contract/service-catalogue";
import { type Metrics } from "#contract/services";
import type { Database } from "../db/index";
import { resourceLogs, resources, resourceUsageSamples } from "../db/schema";
import { CloudStepError } from "../cloud/driver";
import type { Engine } from "../cloud/container/engine";
import { containerLogLines } from "../cloud/container/telemetry";
import {
  lockedResource,
  notStored,
  RUNTIME_LOG_BATCH,
  TelemetryUnavailable,
  writesRuntimeLogs,
  type TelemetrySource,
} from "./telemetry";

/**
 * The logs and metrics of a service on a container engine (issue 26, docs/decisions/058), straight from the
 * engine. Lines are materialised into resource_logs like CloudWatch's, so the live tail's cursor and the search
 * work the same: a read asks the engine for what the service's containers wrote since `logs_written_until`
 * (and LATE_ARRIVAL_MS before it) OUTSIDE any transaction, then stores it in a short one that locks the service
 * row and leaves out the lines already stored (the same time, container and message, counted), whether an
 * earlier read or a concurrent one stored them. The engine keeps no history of resource use: the monitoring tab
 * charts the samples ./usage-samples.ts takes every minute.
 */

/**
 * How far back before the cursor a read looks again: the engine stamps a line when the container wrote it, and
 * it can be readable a moment later (conmon's log file), after a read whose span covered it.
 */
const LATE_ARRIVAL_MS = 10_000;
/** A service first read (or unread) for longer starts with its lines of this last span. */
const LOG_BACKLOG_MS = 15 * 60_000;

const unavailable = (error: unknown) =>
  error instanceof CloudStepError ? new TelemetryUnavailable(error.message) : error;

export function containerTelemetry({
  db,
  engine,
  now,
}: {
  db: Database;
  /** A client of the environment's engine. */
  engine: () => Promise<Engine>;
  now: () => Date;
}): TelemetrySource {
  return {
    async collectLogs(_environment, row) {
      const cursor = (row.logsWrittenUntil ?? row.deployedAt)?.getTime();
      if (!writesRuntimeLogs(row) || cursor === undefined) return;
      const until = now().getTime();
      const from = Math.max(cursor - LATE_ARRIVAL_MS, until - LOG_BACKLOG_MS);
      if (until <= from) return;
      const lines = await containerLogLines(await engine(), row.id, {
        from: new Date(from),
        until: new Date(until),
        limit: RUNTIME_LOG_BATCH,
      }).catch((error: unknown) => {
        throw unavailable(error);
      });
      await db.transaction(async (tx) => {
        const locked = await lockedResource(tx, row.id);
        if (!locked || !writesRuntimeLogs(locked)) return;
        // What this read re-read of the overlap, or a concurrent read stored meanwhile, is there already.
        const stored = await tx
          .select({ at: resourceLogs.at, podName: resourceLogs.podName, message: resourceLogs.message })
          .from(resourceLogs)
          .where(and(eq(resourceLogs.resourceId, locked.id), gte(resourceLogs.at, new Date(from))));
        const fresh = notStored(lines, stored);
        if (fresh.length) {
          await tx.insert(resourceLogs).values(fresh.map((line) => ({ resourceId: locked.id, ...line })));
        }
        // Another read may have got further meanwhile: the cursor never goes back.
        const written = Math.max(locked.logsWrittenUntil?.getTime() ?? 0, until);
        await tx
          .update(resources)
          .set({ logsWrittenUntil: new Date(written) })
          .where(eq(resources.id, locked.id));
      });
    },

    /**
     * The samples ./usage-samples.ts stored over `range` up to `at`, a point per `step` (their mean, at the
     * step's start, steps aligned on the epoch as CloudWatch's periods): a minute without a sample has no point.
     */
    async metrics(row, _resource, range, step, at): Promise<Metrics> {
      const samples = await db
        .select()
        .from(resourceUsageSamples)
        .where(
          and(
            eq(resourceUsageSamples.resourceId, row.id),
            gt(resourceUsageSamples.at, new Date(at.getTime() - metricRanges[range] * 1000)),
            lte(resourceUsageSamples.at, at),
          ),
        )
        .orderBy(asc(resourceUsageSamples.at));
      const stepMs = step * 1000;
      const buckets = new Map<number, { cpu: number[]; memory: number[] }>();
      for (const sample of samples) {
        const start = Math.floor(sample.at.getTime() / stepMs) * stepMs;
        const bucket = buckets.get(start) ?? { cpu: [], memory: [] };
        bucket.cpu.push(sample.cpuPercent);
        bucket.memory.push(sample.memoryPercent);
        buckets.set(start, bucket);
      }
      const mean = (values: number[]) =>
        Math.round((values.reduce((sum, value) => sum + value, 0) / values.length) * 100) / 100;
      const points = (metric: "cpu" | "memory") =>
        [...buckets].map(([start, bucket]) => ({
          at: new Date(start).toISOString(),
          value: mean(bucket[metric]),
        }));
      return {
        range,
        step,
        series: [
          { metric: "cpu", unit: "%", points: points("cpu") },
          { metric: "memory", unit: "%", points: points("memory") },
        ],
      };
    },
  };
}
