import { createPoller } from "../engine/poller";
import { and, asc, eq, inArray, isNotNull, isNull, lte, or } from "drizzle-orm";
import type { EngineConfig } from "../lib/config";
import { ProviderRequestError, type Credentials } from "../connections/providers";
import { credentialsOf } from "../connections/records";
import { withoutSecrets } from "../connections/refusals";
import type { Database } from "../db/index";
import { connections, environments, observabilityProviders, resources } from "../db/schema";
import { TelemetryUnavailable, type TelemetrySource } from "../deployments/telemetry";
import type { EnvironmentRow } from "../environments/records";
import { SecretDecryptionError, type SecretCipher } from "../lib/cipher";
import { driverResourceOf } from "../services/records";
import { isObservabilityKind, metricIntakes } from "./intakes";
import type { MetricBatch, ServiceSeries } from "./metrics";

/** How a post went: the provider's answer, or why it failed, in plain words. */
type ForwardResult = { ok: boolean; message: string };

/**
 * The metric forwarder (issue 13, SPEC §7): every minute, each environment linked to Datadog or Middleware has its
 * deployed services' metrics posted to the provider's intake: the series their monitoring tab charts, from where the
 * environment runs (a container host's samples, CloudWatch, or the simulated cloud, labelled so in the product). Links are leased like the
 * outbox's deliveries: `leased_until` is set in a statement of its own (`FOR UPDATE SKIP LOCKED`), the post runs
 * outside any transaction, and the result is recorded with the next time the link is due in `leased_until`. A
 * platform that stops mid-post leaves its lease to run out; the next post carries the minutes that were missed.
 */

/** How often a link's metrics are posted, scaled like the engine's steps (ENGINE_TIME_SCALE), at least 1 s. */
export const FORWARD_INTERVAL_MS = 60_000;
/** Longer than a post can take (PROVIDER_TIMEOUT_MS), so a lease only runs out when its holder died. */
export const FORWARD_LEASE_MS = 60_000;
/** Datadog refuses points older than an hour: after a longer outage the oldest minutes are not sent. */
export const BACKFILL_LIMIT_MS = 55 * 60_000;
const POINT_STEP_SECONDS = 60;

export type ObservabilityLink = typeof observabilityProviders.$inferSelect;

export const forwardIntervalMs = (timeScale: number) =>
  Math.max(1000, Math.round(FORWARD_INTERVAL_MS * timeScale));

/** Leases the most overdue link at `at`, committing at once; undefined when none is due. */
export async function claimDueLink(db: Database, at: Date): Promise<ObservabilityLink | undefined> {
  const due = db
    .select({ id: observabilityProviders.id })
    .from(observabilityProviders)
    .where(or(isNull(observabilityProviders.leasedUntil), lte(observabilityProviders.leasedUntil, at)))
    .orderBy(asc(observabilityProviders.leasedUntil))
    .limit(1)
    .for("update", { skipLocked: true });
  const [claimed] = await db
    .update(observabilityProviders)
    .set({ leasedUntil: new Date(at.getTime() + FORWARD_LEASE_MS) })
    .where(inArray(observabilityProviders.id, due))
    .returning();
  return claimed;
}

export function createMetricForwarder({
  db,
  secrets,
  telemetryOf,
  settings,
  now = () => new Date(),
}: {
  db: Database;
  secrets: SecretCipher;
  /** Where the environment's services' metrics come from (the engine's choice, as for the monitoring tab). */
  telemetryOf: (environment: EnvironmentRow) => Promise<TelemetrySource>;
  settings: Pick<EngineConfig, "timeScale" | "pollIntervalMs">;
  now?: () => Date;
}) {
  /** The deployed services' one-minute points in (from, to], none from before a service first ran. */
  async function seriesOf(environment: EnvironmentRow, from: Date, to: Date): Promise<ServiceSeries[]> {
    const rows = await db
      .select()
      .from(resources)
      .where(and(eq(resources.environmentId, environment.id), isNotNull(resources.deployedAt)))
      .orderBy(asc(resources.createdAt), asc(resources.id));
    if (!rows.length) return [];
    const telemetry = await telemetryOf(environment);
    const perService = await Promise.all(
      rows.map(async (row) => {
        const since = Math.max(from.getTime(), (row.deployedAt?.getTime() ?? to.getTime()) - 1);
        const resource = driverResourceOf(row, environment);
        const metrics = await telemetry.metrics(row, resource, "1h", POINT_STEP_SECONDS, to);
        return metrics.series
          .map((series) => ({
            service: {
              id: row.id,
              name: row.name,
              serviceType: row.serviceType as ServiceSeries["service"]["serviceType"],
            },
            metric: series.metric,
            unit: series.unit,
            points: series.points
              .map((point) => ({ at: new Date(point.at), value: point.value }))
              // Whole minutes only: the reading at `to` itself is sent with its minute next time.
              .filter(
                ({ at }) =>
                  at.getTime() > since &&
                  at.getTime() <= to.getTime() &&
                  at.getTime() % (POINT_STEP_SECONDS * 1000) === 0,
              ),
          }))
          .filter((series) => series.points.length > 0);
      }),
    );
    return perService.flat();
  }

  /** Posts the link's environment's metrics since the last post; every failure is a result, never a throw. */
  async function forward(link: ObservabilityLink, to: Date): Promise<ForwardResult> {
    const [target] = await db
      .select({ environment: environments, connection: connections })
      .from(environments)
      .innerJoin(connections, eq(connections.id, link.connectionId))
      .where(eq(environments.id, link.environmentId));
    if (!target) return { ok: false, message: "The environment or its connection no longer exists." };
    const { environment, connection } = target;
    if (!isObservabilityKind(connection.kind)) {
      return { ok: false, message: "The connection is not a Datadog or Middleware connection." };
    }
    const from = new Date(
      Math.max(
        (link.lastForwardedAt ?? new Date(to.getTime() - POINT_STEP_SECONDS * 1000)).getTime(),
        to.getTime() - BACKFILL_LIMIT_MS,
      ),
    );
    let batch: MetricBatch;
    try {
      batch = { environmentName: environment.name, series: await seriesOf(environment, from, to) };
    } catch (error) {
      if (!(error instanceof TelemetryUnavailable)) throw error;
      return { ok: false, message: `The environment's metrics could not be read: ${error.message}` };
    }
    if (!batch.series.length) return { ok: true, message: "No service of the environment is deployed yet." };
    let credentials: Credentials;
    try {
      credentials = credentialsOf(secrets, connection);
    } catch (error) {
      if (!(error instanceof SecretDecryptionError)) throw error;
      return { ok: false, message: `The connection's secrets could not be opened: ${error.message}.` };
    }
    try {
      return { ok: true, message: await metricIntakes[connection.kind].post(credentials, batch) };
    } catch (error) {
      if (error instanceof ProviderRequestError) {
        return { ok: false, message: withoutSecrets(error.message, credentials) };
      }
      console.error(`observability: forwarding the metrics of link ${link.id} failed unexpectedly`, error);
      return { ok: false, message: "The metrics could not be posted because of an unexpected error." };
    }
  }

  /** Records the post of the link this forwarder leased, and when the link is due again. */
  async function record(link: ObservabilityLink, to: Date, result: ForwardResult) {
    const lease = link.leasedUntil;
    await db
      .update(observabilityProviders)
      .set({
        lastForwardedAt: result.ok ? to : link.lastForwardedAt,
        lastForwardError: result.ok ? null : result.message,
        leasedUntil: new Date(now().getTime() + forwardIntervalMs(settings.timeScale)),
      })
      .where(
        and(
          eq(observabilityProviders.id, link.id),
          lease ? eq(observabilityProviders.leasedUntil, lease) : isNull(observabilityProviders.leasedUntil),
        ),
      );
  }

  /** Claims, posts and records one due link; false when none is due. */
  async function forwardNext(): Promise<boolean> {
    const to = now();
    const link = await claimDueLink(db, to);
    if (!link) return false;
    await record(link, to, await forward(link, to));
    return true;
  }

  async function runDue(): Promise<number> {
    let forwarded = 0;
    while (await forwardNext()) forwarded += 1;
    return forwarded;
  }

  const poller = createPoller({ name: "observability", pollIntervalMs: settings.pollIntervalMs, runDue });
  return {
    runDue,
    forwardNext,
    /** Polls for due links every ENGINE_POLL_INTERVAL_MS until stopped. */
    start: poller.start,
    /** Stops polling and waits for the post in progress to be recorded. */
    stop: poller.stop,
    get isRunning() {
      return poller.isRunning;
    },
  };
}

export type MetricForwarder = ReturnType<typeof createMetricForwarder>;
