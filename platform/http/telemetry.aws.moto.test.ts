import { PutMetricDataCommand } from "@aws-sdk/client-cloudwatch";
import {
  CreateLogStreamCommand,
  DescribeLogGroupsCommand,
  PutLogEventsCommand,
} from "@aws-sdk/client-cloudwatch-logs";
import { GetResourcesCommand } from "@aws-sdk/client-resource-groups-tagging-api";
import { eq } from "drizzle-orm";
import { strToU8, zipSync } from "fflate";
import { afterAll, beforeAll, expect, it } from "vitest";
import {
  alarmListSchema,
  logListSchema,
  metricsSchema,
  resourceResponseSchema,
  servicePaths,
  type LogQuery,
} from "#contract/services";
import { setUpMoto } from "../testing/aws";
import { defaultTerraformConfig } from "../lib/config";
import { resources } from "../db/schema";
import { TAG_SERVICE } from "../cloud/aws/provisioner";
import { openTestApi, type TestApi, type TestMember } from "../testing/http-harness";

/*
 * The logs and monitoring tabs of a service in an AWS connection (moto_server) read CloudWatch through the API: a
 * serverless function deployed by the platform's own provisioner writes to /aws/lambda/<function> (lines put there
 * with the SDK), its metrics are AWS/Lambda's (put with PutMetricData), and an unreachable CloudWatch answers 502
 * at once with what failed.
 */

const region = "us-west-2";
// Lambda's execution role gets AWSLambdaBasicExecutionRole, an AWS managed policy.
const moto = setUpMoto({ region, settings: { MOTO_IAM_LOAD_MANAGED_POLICIES: "true" } });
const { aws } = moto;
let api: TestApi;
beforeAll(async () => {
  api = await openTestApi({ terraform: { ...defaultTerraformConfig, awsEndpoint: moto.endpoint } });
});
afterAll(() => api?.close());

let member: TestMember;
let tenantId: string;
let environmentId: string;
let serviceId: string;
let functionName: string;
const stream = "2025/06/01/[$LATEST]0f1e2d3c4b5a69788796a5b4c3d2e1f0";

const call = (method: string, path: string, json?: unknown) =>
  api.call(method, path, { token: member.user.token, json });

async function logs(query: LogQuery = {}) {
  const response = await call("GET", servicePaths.logs(tenantId, environmentId, serviceId, query));
  expect(response.status).toBe(200);
  return logListSchema.parse(await response.json()).logs;
}

/** Lines the function writes, `secondsAgo` before now (CloudWatch keeps the time the function stamped). */
async function write(...events: { message: string; secondsAgo: number }[]) {
  const client = await aws.cloudWatchLogs();
  await client.send(
    new PutLogEventsCommand({
      logGroupName: `/aws/lambda/${functionName}`,
      logStreamName: stream,
      logEvents: events.map(({ message, secondsAgo }) => ({
        message,
        timestamp: Date.now() - secondsAgo * 1000,
      })),
    }),
  );
}

/** A serverless service deployed in the environment: its id and its Lambda function's name. */
async function deployFunction(name: string) {
  const form = new FormData();
  const archive = zipSync({ "index.js": strToU8("exports.handler = async () => ({ statusCode: 200 });\n") });
  form.set("file", new File([archive], "function.zip", { type: "application/zip" }));
  const uploaded = await api.app.request(`/api${servicePaths.serverlessUpload(tenantId, environmentId)}`, {
    method: "POST",
    headers: { Authorization: `Bearer ${member.user.token}` },
    body: form,
  });
  const { upload } = (await uploaded.json()) as { upload: { id: string } };
  const created = await call("POST", servicePaths.list(tenantId, environmentId), {
    serviceType: "serverless",
    name,
    config: {
      runtime: "nodejs22.x",
      handler: "index.handler",
      memoryMb: 256,
      timeoutSeconds: 30,
      uploadId: upload.id,
    },
    launch: true,
  });
  expect(created.status).toBe(201);
  const { id } = resourceResponseSchema.parse(await created.json()).resource;
  await api.engine.runner.runUntilIdle();
  const [row] = await api.db.select().from(resources).where(eq(resources.id, id));
  expect(row?.stage).toBe("STAGE_COMPLETED");
  const deployedName = row?.cloudOutputs?.functionName ?? "";
  expect(row?.cloudOutputs?.logGroups).toBe(`/aws/lambda/${deployedName}`);
  return { id, functionName: deployedName };
}

beforeAll(async () => {
  member = await api.createMember({ role: "admin" });
  tenantId = member.organization.tenantId;
  const environment = await api.createAwsEnvironment(member, region);
  environmentId = environment.id;

  ({ id: serviceId, functionName } = await deployFunction("resize"));
  // Deployed ten minutes ago: the lines and points below come after it.
  await api.db
    .update(resources)
    .set({ deployedAt: new Date(Date.now() - 10 * 60_000) })
    .where(eq(resources.id, serviceId));
  await (
    await aws.cloudWatchLogs()
  ).send(new CreateLogStreamCommand({ logGroupName: `/aws/lambda/${functionName}`, logStreamName: stream }));
}, 120_000);

it("tails the function's CloudWatch lines, then only what came after, and searches them", async () => {
  await write(
    { message: "START RequestId: 5d1e Version: $LATEST", secondsAgo: 50 },
    {
      message: "2025-06-01T10:00:01.000Z\t5d1e\tERROR\tthumbnail failed: unsupported format",
      secondsAgo: 49,
    },
    { message: "REPORT RequestId: 5d1e\tDuration: 12.50 ms\tBilled Duration: 13 ms", secondsAgo: 48 },
  );
  const tail = await logs();
  const fromCloudWatch = tail.filter((line) => line.podName === stream);
  expect(fromCloudWatch.map((line) => [line.level, line.message.slice(0, 20)])).toEqual([
    ["info", "START RequestId: 5d1"],
    ["error", "2025-06-01T10:00:01."],
    ["info", "REPORT RequestId: 5d"],
  ]);
  // The deployment's own lines come first.
  expect(tail.at(-1)?.podName).toBe(stream);
  const last = tail.at(-1)?.id ?? "";

  expect(await logs({ after: last })).toEqual([]);
  await write(
    { message: "START RequestId: 77aa Version: $LATEST", secondsAgo: 5 },
    { message: "WARN cache miss for 77aa", secondsAgo: 4 },
  );
  const after = await logs({ after: last });
  expect(after.map((line) => [line.level, line.message])).toEqual([
    ["info", "START RequestId: 77aa Version: $LATEST"],
    ["warn", "WARN cache miss for 77aa"],
  ]);

  const found = await logs({ logType: "SEARCH", text: "unsupported format" });
  expect(found.map((line) => line.level)).toEqual(["error"]);
  expect((await logs({ logType: "SEARCH", level: "warn" })).map((line) => line.message)).toEqual([
    "WARN cache miss for 77aa",
  ]);
  const lastMinute = await logs({
    logType: "SEARCH",
    text: "RequestId",
    from: new Date(Date.now() - 30_000).toISOString(),
    to: new Date().toISOString(),
  });
  expect(lastMinute.map((line) => line.message)).toEqual(["START RequestId: 77aa Version: $LATEST"]);
});

it("stores each line once under concurrent reads, a line CloudWatch ingested late included", async () => {
  const before = await logs({ limit: 1000 });
  await write(
    // Stamped before the last read's cursor, ingested only now.
    { message: "late line of 5d1e", secondsAgo: 30 },
    { message: "END RequestId: 77aa", secondsAgo: 2 },
  );
  await Promise.all([logs(), logs(), logs()]);
  const all = await logs({ limit: 1000 });
  const messages = all.map((line) => line.message);
  expect(messages.length).toBe(before.length + 2);
  expect(new Set(messages).size).toBe(messages.length);
  expect(messages.filter((message) => message === "late line of 5d1e")).toHaveLength(1);
});

it("shows the function's AWS/Lambda metrics and judges the alarms over them", async () => {
  const client = await aws.cloudWatch();
  const at = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000);
  const dimensions = [{ Name: "FunctionName", Value: functionName }];
  await client.send(
    new PutMetricDataCommand({
      Namespace: "AWS/Lambda",
      MetricData: [3, 2].flatMap((minutesAgo, index) => [
        {
          MetricName: "Invocations",
          Dimensions: dimensions,
          Timestamp: at(minutesAgo),
          Value: 40 + index * 20,
        },
        { MetricName: "Errors", Dimensions: dimensions, Timestamp: at(minutesAgo), Value: index * 30 },
        {
          MetricName: "Duration",
          Dimensions: dimensions,
          Timestamp: at(minutesAgo),
          Value: 120 + index * 80,
        },
      ]),
    }),
  );
  const response = await call(
    "GET",
    servicePaths.metrics(tenantId, environmentId, serviceId, { range: "1h" }),
  );
  expect(response.status).toBe(200);
  const metrics = metricsSchema.parse(await response.json());
  expect(metrics.step).toBe(60);
  const valuesOf = (metric: string) =>
    metrics.series.find((series) => series.metric === metric)?.points.map((point) => point.value);
  expect(valuesOf("requests")).toEqual([40, 60]);
  expect(valuesOf("errors")).toEqual([0, 30]);
  expect(valuesOf("latency")).toEqual([120, 200]);
  // Lambda publishes no CPU or memory: the function has no such series (nor alarms on them).
  expect(metrics.series.map((series) => series.metric)).toEqual(["requests", "errors", "latency"]);

  const alarms = await call("GET", servicePaths.alarms(tenantId, environmentId, serviceId, { range: "1h" }));
  expect(alarms.status).toBe(200);
  const judged = alarmListSchema.parse(await alarms.json()).alarms;
  expect(judged.find((alarm) => alarm.metric === "errors")).toMatchObject({ value: 30, state: "ALARM" });
  expect(judged.map((alarm) => alarm.metric).sort()).toEqual(["errors", "latency"]);
});

it("judges no alarm before CloudWatch has a datapoint: insufficient data, no value", async () => {
  const { id } = await deployFunction("quiet");
  const alarms = await call("GET", servicePaths.alarms(tenantId, environmentId, id, { range: "1h" }));
  expect(alarms.status).toBe(200);
  const judged = alarmListSchema.parse(await alarms.json()).alarms;
  expect(judged.length).toBeGreaterThan(0);
  for (const alarm of judged) expect(alarm).toMatchObject({ state: "INSUFFICIENT_DATA", value: null });
});

it("deletes the function's log group with it, leaving nothing tagged", async () => {
  const deleting = await call("DELETE", servicePaths.one(tenantId, environmentId, serviceId));
  expect(deleting.status).toBe(202);
  await api.engine.runner.runUntilIdle();
  expect((await call("GET", servicePaths.one(tenantId, environmentId, serviceId))).status).toBe(404);
  const { logGroups = [] } = await (
    await aws.cloudWatchLogs()
  ).send(new DescribeLogGroupsCommand({ logGroupNamePrefix: `/aws/lambda/${functionName}` }));
  expect(logGroups).toEqual([]);
  const { ResourceTagMappingList = [] } = await (
    await aws.resourceGroupsTagging()
  ).send(new GetResourcesCommand({ TagFilters: [{ Key: TAG_SERVICE, Values: [serviceId] }] }));
  expect(ResourceTagMappingList).toEqual([]);
});

it("answers 502 at once, saying what failed, when CloudWatch cannot be reached", async () => {
  const { id } = await deployFunction("unreachable");
  // The connection's credentials were confirmed by the reads above; CloudWatch then goes away.
  await moto.server.stop();
  const started = Date.now();
  const logsResponse = await call("GET", servicePaths.logs(tenantId, environmentId, id));
  expect(logsResponse.status).toBe(502);
  expect(((await logsResponse.json()) as { message: string }).message).toMatch(
    /^AWS CloudWatch Logs could not be reached at 127\.0\.0\.1:\d+ \(the connection was refused\); new log lines show once it answers\. Code for support: ECONNREFUSED$/,
  );
  const metricsResponse = await call("GET", servicePaths.metrics(tenantId, environmentId, id));
  expect(metricsResponse.status).toBe(502);
  expect(((await metricsResponse.json()) as { message: string }).message).toMatch(
    /^AWS CloudWatch could not be reached at 127\.0\.0\.1:\d+ \(the connection was refused\); the metrics show once it answers\. Code for support: ECONNREFUSED$/,
  );
  // Two attempts each, no minutes-long retries: well within the provider time-out.
  expect(Date.now() - started).toBeLessThan(10_000);
});
