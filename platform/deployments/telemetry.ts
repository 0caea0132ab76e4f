import { eq } from "drizzle-orm";
import type { MetricRange } from "#contract/service-catalogue";
import type { Metrics } from "#contract/services";
import type { Stage } from "#contract/stages";
import type { Database } from "../db/index";
import { resourceLogs, resources } from "../db/schema";
import type { EnvironmentRow } from "../environments/records";
import { driverResourceOf, type ResourceRow } from "../services/records";
import type { CloudDriver, DriverResource, NewLogLine } from "../cloud/driver";

/**
 * Where the logs tab and the monitoring tab of a service read from (issue 14): the simulated cloud's deterministic
 * lines and series, or the cloud the environment runs in (CloudWatch for an AWS connection,
 * platform/deployments/aws-telemetry.ts). Chosen per environment like the deploy driver (`telemetryOf` in
 * ./cloud-steps.ts). Either way runtime log lines are materialised into resource_logs, so the live tail's `after`
 * cursor and the search work the same for both; alarms are judged over the series by the same rules.
 */
export interface TelemetrySource {
  /** Stores the lines the deployed service wrote since the last read in resource_logs. */
  collectLogs(environment: EnvironmentRow, row: ResourceRow): Promise<void>;
  /** CPU, memory, requests, errors and latency over `range` ending at `now`, a point per `step` seconds. */
  metrics(
    row: ResourceRow,
    resource: DriverResource,
    range: MetricRange,
    step: number,
    now: Date,
  ): Promise<Metrics>;
}

/** The cloud refused or could not be reached; the message says which and how (AWS's code and message). */
export class TelemetryUnavailable extends Error {
  constructor(message: string) {
    super(message);
    this.name = "TelemetryUnavailable";
  }
}

/** Stages in which a deployed service runs and writes logs. */
const runningStages: readonly Stage[] = ["STAGE_COMPLETED", "STAGE_SYNCING"];
/** The most runtime lines written per read: a service unread for a long time gets its latest lines only. */
export const RUNTIME_LOG_BATCH = 500;

export const writesRuntimeLogs = (row: ResourceRow) =>
  runningStages.includes(row.stage as Stage) && (row.logsWrittenUntil ?? row.deployedAt) !== null;

const lineKey = (line: Pick<NewLogLine, "at" | "podName" | "message">) =>
  `${line.at.getTime()}\n${line.podName}\n${line.message}`;

/** `lines` without those `stored` already holds, counted: each stored line accounts for one equal line. */
export function notStored(lines: NewLogLine[], stored: Pick<NewLogLine, "at" | "podName" | "message">[]) {
  const counts = new Map<string, number>();
  for (const line of stored) counts.set(lineKey(line), (counts.get(lineKey(line)) ?? 0) + 1);
  return lines.filter((line) => {
    const count = counts.get(lineKey(line)) ?? 0;
    if (count === 0) return true;
    counts.set(lineKey(line), count - 1);
    return false;
  });
}

/** The service row, locked until the transaction ends (undefined when it was deleted meanwhile). */
export async function lockedResource(tx: Database, resourceId: string): Promise<ResourceRow | undefined> {
  const [row] = await tx.select().from(resources).where(eq(resources.id, resourceId)).for("update");
  return row;
}

const runningPodsOf = (row: ResourceRow) =>
  row.pods.filter((pod) => pod.status === "Running").map((pod) => pod.name);

/**
 * The simulated cloud: a read asks the driver for what the running pods wrote since `logs_written_until` (or the
 * deployment) and stores it, in one transaction holding the service row FOR UPDATE, so concurrent reads neither
 * duplicate nor lose lines. The driver answers at once from deterministic data, so the lock is held briefly.
 */
export function simulatedTelemetry({
  db,
  driver,
  now,
}: {
  db: Database;
  driver: CloudDriver;
  now: () => Date;
}): TelemetrySource {
  return {
    async collectLogs(environment, row) {
      if (!writesRuntimeLogs(row)) return;
      await db.transaction(async (tx) => {
        const locked = await lockedResource(tx, row.id);
        if (!locked || !writesRuntimeLogs(locked)) return;
        const from = locked.logsWrittenUntil ?? locked.deployedAt;
        const until = now();
        if (!from || until.getTime() <= from.getTime()) return;
        const pods = runningPodsOf(locked);
        const lines = pods.length
          ? driver.runtimeLogs(driverResourceOf(locked, environment), pods, from, until, RUNTIME_LOG_BATCH)
          : [];
        if (lines.length) {
          await tx.insert(resourceLogs).values(lines.map((line) => ({ resourceId: locked.id, ...line })));
        }
        await tx.update(resources).set({ logsWrittenUntil: until }).where(eq(resources.id, locked.id));
      });
    },
    metrics: async (_row, resource, range, step, at) => driver.metrics(resource, range, step, at),
  };
}
