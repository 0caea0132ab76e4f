import { and, eq, inArray, lt, notExists, gt, sql } from "drizzle-orm";
import type { Database } from "../db/index";
import { connections, environments, resources, resourceUsageSamples } from "../db/schema";
import { CloudStepError } from "../cloud/driver";
import { connectEngine } from "../cloud/container/engine";
import { containerUsage } from "../cloud/container/telemetry";
import { createPoller } from "../engine/poller";
import { containerHostTlsOf } from "../connections/container-hosts";
import type { SecretCipher } from "../lib/cipher";

/**
 * The monitoring tab's history for services on a container host (issue 26, docs/decisions/061). The engine keeps
 * no history of resource use (its stats call answers the present), so the platform samples it, as CloudWatch
 * samples a task: every running application on a container host gets one sample per interval (its containers'
 * mean CPU and memory, as shares of their limits), stored in resource_usage_samples and kept SAMPLE_RETENTION_MS
 * (the longest range the tab shows). A read charts the stored samples (./container-telemetry.ts), so alarms are
 * judged on real values over time. The engine is asked outside any transaction; an engine that cannot be asked
 * is logged once per host until it answers, and its services get no sample meanwhile (a gap in the chart).
 */

/** One sample a minute, CloudWatch's standard resolution. */
export const USAGE_SAMPLE_INTERVAL_MS = 60_000;
/** Seven days: the monitoring tab's longest range. */
const SAMPLE_RETENTION_MS = 7 * 24 * 60 * 60_000;

export function createUsageSampling({
  db,
  secrets,
  now = () => new Date(),
  intervalMs = USAGE_SAMPLE_INTERVAL_MS,
}: {
  db: Database;
  /** Opens a TLS host's client key. */
  secrets: SecretCipher;
  now?: () => Date;
  intervalMs?: number;
}) {
  /** The hosts that could not be asked, with what they answered: each is logged once. */
  const unreachable = new Map<string, string>();

  /** Running applications on a container host without a sample in the last interval. */
  function dueServices(at: Date) {
    return db
      .select({ id: resources.id, connection: connections })
      .from(resources)
      .innerJoin(environments, eq(environments.id, resources.environmentId))
      .innerJoin(connections, eq(connections.id, environments.cloudConnectionId))
      .where(
        and(
          eq(connections.kind, "CONTAINER_HOST"),
          eq(resources.serviceType, "application"),
          inArray(resources.stage, ["STAGE_COMPLETED", "STAGE_SYNCING"]),
          notExists(
            db
              .select({ one: sql`1` })
              .from(resourceUsageSamples)
              .where(
                and(
                  eq(resourceUsageSamples.resourceId, resources.id),
                  gt(resourceUsageSamples.at, new Date(at.getTime() - intervalMs)),
                ),
              ),
          ),
        ),
      );
  }

  /** Samples every due service once; returns how many got a sample. */
  async function runDue(): Promise<number> {
    const at = now();
    let sampled = 0;
    for (const service of await dueServices(at)) {
      const dockerHost = (service.connection.fields as Record<string, string | undefined>).DOCKER_HOST ?? "";
      let usage;
      try {
        const tls = containerHostTlsOf(secrets, service.connection);
        usage = await containerUsage(await connectEngine(dockerHost, { tls }), service.id);
        if (unreachable.delete(dockerHost)) console.info(`usage samples: ${dockerHost} answers again`);
      } catch (error) {
        const message =
          error instanceof CloudStepError || error instanceof Error ? error.message : String(error);
        if (!unreachable.has(dockerHost)) {
          console.warn(
            `usage samples: ${dockerHost} could not be asked (${message}); no samples until it answers`,
          );
        }
        unreachable.set(dockerHost, message);
        continue;
      }
      // Between a deployment's end and its container's (a drift the check reports): nothing to sample.
      if (!usage.length) continue;
      const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
      await db
        .insert(resourceUsageSamples)
        .values({
          resourceId: service.id,
          at,
          cpuPercent: mean(usage.map((one) => one.cpuPercent)),
          memoryPercent: mean(usage.map((one) => one.memoryPercent)),
        })
        .onConflictDoNothing();
      sampled += 1;
    }
    await db
      .delete(resourceUsageSamples)
      .where(lt(resourceUsageSamples.at, new Date(at.getTime() - SAMPLE_RETENTION_MS)));
    return sampled;
  }

  const poller = createPoller({ name: "usage samples", pollIntervalMs: intervalMs, runDue });
  return { runDue, start: poller.start, stop: poller.stop };
}

export type UsageSampling = ReturnType<typeof createUsageSampling>;
