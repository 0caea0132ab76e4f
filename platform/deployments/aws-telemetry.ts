import type * as LogsSdk from "@aws-sdk/client-cloudwatch-logs";
import { and, eq, gte, lt } from "drizzle-orm";
import type { Database } from "../db/index";
import { resourceLogs, resources } from "../db/schema";
import { ProviderRefusal } from "../connections/refusals";
import { createAwsClients, type AwsClients, type AwsConnection } from "../cloud/aws/clients";
import type { NewLogLine } from "../cloud/driver";
import { lockedResource, TelemetryUnavailable, writesRuntimeLogs, type TelemetrySource } from "./telemetry";
import { logGroupsOf } from "../cloud/aws/log-groups";
import { cloudWatchMetrics } from "../cloud/aws/metrics";
import { unansweredFailureOf } from "../cloud/aws/aws-errors";

/**
 * The logs and metrics of a service in an AWS connection, from CloudWatch (issue 14; docs/decisions/030).
 *
 * Log lines are materialised into resource_logs like the simulated cloud's, so the live tail's `after` cursor (a
 * line id) and the search keep working. A read fetches the events of the service's log groups (its provisioner's
 * `logGroups` output) since `logs_written_until` with FilterLogEvents OUTSIDE any transaction, then stores them in
 * a short transaction that locks the service row and re-reads what is stored. CloudWatch ingests events late
 * (seconds, sometimes more), so each read looks LATE_ARRIVAL_MS back before the cursor and leaves out the events
 * already stored there: an event is the same line when its time, stream and message are (counted, so two equal
 * lines in one millisecond stay two). Concurrent reads therefore neither duplicate (the second one, under the
 * lock, sees the first one's lines) nor lose lines (each inserts what it found missing). Stored lines carry no
 * CloudWatch event id: that would need a column, and the time boundary with this overlap does the same job.
 */

/** How far back before the cursor events may still arrive (CloudWatch ingestion delays), re-read on each read. */
export const LATE_ARRIVAL_MS = 2 * 60_000;
/** A service first read (or unread) for longer starts with its lines of this last span. */
export const LOG_BACKLOG_MS = 15 * 60_000;
/** Events per FilterLogEvents page, and pages per log group and read; a busier group catches up over reads. */
const EVENTS_PER_PAGE = 1_000;
const PAGES_PER_READ = 5;

type Connection = () => Promise<AwsConnection>;

/** Who each read asks, and what it shows once that service answers: said when it does not. */
const reads = {
  CloudWatch: { who: "AWS CloudWatch", meanwhile: "the metrics show once it answers" },
  "CloudWatch Logs": { who: "AWS CloudWatch Logs", meanwhile: "new log lines show once it answers" },
  AWS: { who: "AWS", meanwhile: "the final snapshots show once it answers" },
} as const;
type CloudWatchService = keyof typeof reads;

/** The connection's clients for one read, closed after it; CloudWatch's failures read as AWS words them. */
export async function withCloudWatch<Result>(
  connection: Connection,
  service: CloudWatchService,
  read: (aws: AwsClients) => Promise<Result>,
): Promise<Result> {
  let aws: AwsClients | undefined;
  try {
    // The connection's own call settings: two attempts, each given half of the provider time-out.
    aws = createAwsClients(await connection());
    return await read(aws);
  } catch (error) {
    throw telemetryFailure(service, error);
  } finally {
    aws?.destroy();
  }
}

type SdkError = Error & { $fault?: unknown; $metadata?: { httpStatusCode?: unknown }; code?: unknown };

/**
 * What the user reads when CloudWatch refused or did not answer: AWS's words for a refusal; for no answer, what
 * happened and what shows once it answers, with the code for support (`unansweredFailureOf`).
 */
export function telemetryFailure(service: CloudWatchService, error: unknown): Error {
  if (error instanceof TelemetryUnavailable) return error;
  if (error instanceof ProviderRefusal) return new TelemetryUnavailable(error.message);
  if (!(error instanceof Error)) return new Error(String(error));
  const { $fault, $metadata, code } = error as SdkError;
  const answered = $fault !== undefined || typeof $metadata?.httpStatusCode === "number";
  const unanswered = unansweredFailureOf(error, {
    service: reads[service].who,
    meanwhile: reads[service].meanwhile,
  });
  if (unanswered) return new TelemetryUnavailable(unanswered.charAt(0).toUpperCase() + unanswered.slice(1));
  if (answered) return new TelemetryUnavailable(`${service} answered ${error.name}: ${error.message}`);
  // Not the SDK's failure to get an answer (a socket error, a time-out): a bug, reported as one.
  if ($metadata === undefined && typeof code !== "string" && error.name !== "TimeoutError") return error;
  const reason =
    typeof code === "string" && code !== error.name ? `${code}: ${error.message}` : error.message;
  return new TelemetryUnavailable(
    `Could not reach ${service}: ${error.name === "Error" ? "" : `${error.name}: `}${reason}`,
  );
}

const levelOf = (message: string): NewLogLine["level"] => {
  if (
    /\b(ERROR|FATAL|CRITICAL|PANIC)\b|"level"\s*:\s*"(error|fatal|critical)"|level=(error|fatal)/.test(
      message,
    )
  )
    return "error";
  if (/\bWARN(ING)?\b|"level"\s*:\s*"warn(ing)?"|level=warn/.test(message)) return "warn";
  if (/\b(DEBUG|TRACE)\b|"level"\s*:\s*"(debug|trace)"|level=(debug|trace)/.test(message)) return "debug";
  return "info";
};

/**
 * The events of `groups` in [from, until), oldest first; `until` comes earlier when a group had more to read than
 * a read takes. A group whose re-read span before `cursor` alone fills the pages skips to `cursor`, so a busy
 * service still moves on.
 */
async function readEvents(
  aws: AwsClients,
  groups: string[],
  { from, cursor, until }: { from: number; cursor: number; until: number },
): Promise<{ lines: NewLogLine[]; until: number }> {
  const logs = await aws.cloudWatchLogs();
  const sdk: typeof LogsSdk = await import("@aws-sdk/client-cloudwatch-logs");
  const events: LogsSdk.FilteredLogEvent[] = [];
  let readUntil = until;
  for (const logGroupName of groups) {
    let start = from;
    let nextToken: string | undefined;
    let pages = 0;
    let last = start;
    try {
      for (;;) {
        const page = await logs.send(
          new sdk.FilterLogEventsCommand({
            logGroupName,
            startTime: start,
            // Inclusive in CloudWatch.
            endTime: until - 1,
            limit: EVENTS_PER_PAGE,
            nextToken,
          }),
        );
        events.push(...(page.events ?? []));
        last = page.events?.at(-1)?.timestamp ?? last;
        nextToken = page.nextToken;
        pages++;
        if (!nextToken) break;
        if (pages < PAGES_PER_READ) continue;
        // Out of pages: still in the re-read span, skip to the cursor once; past it, the next read goes on.
        if (start >= cursor || last >= cursor) break;
        start = cursor;
        nextToken = undefined;
        pages = 0;
      }
    } catch (error) {
      // A group not created yet (RDS creates its export groups once the instance runs) has no lines.
      if (error instanceof Error && error.name === "ResourceNotFoundException") continue;
      throw error;
    }
    // Events left in this group: the next read goes on from the last one read (its millisecond included).
    if (nextToken) readUntil = Math.min(readUntil, Math.max(last, start + 1));
  }
  const lines = events
    .filter((event) => event.timestamp !== undefined && event.timestamp < readUntil)
    .map((event) => {
      const message = (event.message ?? "").replace(/\r?\n$/, "");
      return {
        at: new Date(event.timestamp ?? from),
        podName: event.logStreamName ?? "",
        level: levelOf(message),
        message,
      };
    })
    .sort((a, b) => a.at.getTime() - b.at.getTime());
  return { lines, until: readUntil };
}

const lineKey = (line: Pick<NewLogLine, "at" | "podName" | "message">) =>
  `${line.at.getTime()}\n${line.podName}\n${line.message}`;

/** `lines` without those `stored` already holds, counted: each stored line accounts for one equal line. */
function notStored(lines: NewLogLine[], stored: Pick<NewLogLine, "at" | "podName" | "message">[]) {
  const counts = new Map<string, number>();
  for (const line of stored) counts.set(lineKey(line), (counts.get(lineKey(line)) ?? 0) + 1);
  return lines.filter((line) => {
    const count = counts.get(lineKey(line)) ?? 0;
    if (count === 0) return true;
    counts.set(lineKey(line), count - 1);
    return false;
  });
}

export function cloudWatchTelemetry({
  db,
  connection,
  now,
}: {
  db: Database;
  /** The environment's connection's credentials in its region (the AWS driver's, cached while fresh). */
  connection: Connection;
  now: () => Date;
}): TelemetrySource {
  return {
    async collectLogs(_environment, row) {
      const groups = logGroupsOf(row.cloudOutputs);
      const cursor = (row.logsWrittenUntil ?? row.deployedAt)?.getTime();
      if (!writesRuntimeLogs(row) || !groups.length || cursor === undefined) return;
      const until = now().getTime();
      const from = Math.max(cursor - LATE_ARRIVAL_MS, until - LOG_BACKLOG_MS);
      if (until <= from) return;
      const read = await withCloudWatch(connection, "CloudWatch Logs", (aws) =>
        readEvents(aws, groups, { from, cursor, until }),
      );
      await db.transaction(async (tx) => {
        const locked = await lockedResource(tx, row.id);
        if (!locked || !writesRuntimeLogs(locked)) return;
        const stored = await tx
          .select({ at: resourceLogs.at, podName: resourceLogs.podName, message: resourceLogs.message })
          .from(resourceLogs)
          .where(
            and(
              eq(resourceLogs.resourceId, locked.id),
              gte(resourceLogs.at, new Date(from)),
              lt(resourceLogs.at, new Date(read.until)),
            ),
          );
        const fresh = notStored(read.lines, stored);
        if (fresh.length) {
          await tx.insert(resourceLogs).values(fresh.map((line) => ({ resourceId: locked.id, ...line })));
        }
        // Another read may have got further meanwhile: the cursor never goes back.
        const written = Math.max(locked.logsWrittenUntil?.getTime() ?? 0, read.until);
        await tx
          .update(resources)
          .set({ logsWrittenUntil: new Date(written) })
          .where(eq(resources.id, locked.id));
      });
    },

    metrics: (row, _resource, range, step, at) =>
      withCloudWatch(connection, "CloudWatch", (aws) => cloudWatchMetrics(aws, row, range, step, at)),
  };
}
