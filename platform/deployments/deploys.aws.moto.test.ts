import { randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { SQSClient } from "@aws-sdk/client-sqs";
import {
  CreateQueueCommand,
  GetQueueAttributesCommand,
  ListQueuesCommand,
  ListQueueTagsCommand,
} from "@aws-sdk/client-sqs";
import { and, desc, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type ServiceType } from "#contract/service-catalogue";
import { defaultServiceSettings } from "#contract/services";
import { defaultServiceConfigs } from "#contract/service-configs";
import { MOTO_ACCOUNT_ID, motoCredentials } from "../../tests/setup/moto-server";
import { setUpMoto } from "../testing/aws";
import type { EngineConfig } from "../lib/config";
import type { Database, OpenDatabase } from "../db/index";
import {
  engineJobs,
  environments,
  organizations,
  resourceHistory,
  resourceLogs,
  resources,
} from "../db/schema";
import { openReopenableTestDb, openTestDb } from "../testing/db";
import type { EnvironmentRow } from "../environments/records";
import { insertConnection } from "../testing/notification-connections";
import { secretCipherFor, type SecretCipher } from "../lib/cipher";
import { createService } from "../services/services";
import { TAG_ENVIRONMENT, TAG_ORGANIZATION, TAG_SERVICE, type Provisioner } from "../cloud/aws/provisioner";
import { testQueueProvisioner } from "../testing/aws";
import { DEPLOY_JOB_KIND } from "./deploys";
import { deployProgressOf } from "./progress";
import { STEP_ATTEMPTS } from "./cloud-steps";
import { createOperations, type Operations } from "../operations/operations";
import { JOB_LEASE_MS } from "../engine/jobs";

/*
 * The AWS driver through the engine against moto_server: a queue service of an environment in an AWS connection
 * (access keys moto accepts) is created in SQS step by step, survives a platform dying in the middle of its create
 * and an instance taken over, fails with AWS's own words or its time-out, and is torn down on delete. The clock is
 * the test's, so each step runs exactly when the test moves time past its wait.
 */

const region = "eu-west-1";
const settings: EngineConfig = { timeScale: 0, pollIntervalMs: 5, failureInjection: false };

const moto = setUpMoto({ region });
let dataDir: string;
let secrets: SecretCipher;
let sqs: SQSClient;
let clock = new Date("2032-01-01T00:00:00.000Z");
const advance = (ms: number) => {
  clock = new Date(clock.getTime() + ms);
};

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), "aws-deploys-"));
  secrets = secretCipherFor({ dataDir });
  sqs = await moto.aws.sqs();
}, 60_000);
afterAll(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

function engineOn(
  db: Database,
  provisioners: Partial<Record<ServiceType, Provisioner>>,
  runner: { instanceId?: string; heartbeatMs?: number } = {},
): Operations {
  return createOperations({
    db,
    config: { engine: settings, appUrl: "http://localhost:3000", terraform: { awsEndpoint: moto.endpoint } },
    secrets,
    now: () => clock,
    provisioners,
    runner,
  });
}

/** An organization with an AWS connection (access keys) and an environment running in it. */
async function awsEnvironment(db: Database): Promise<EnvironmentRow> {
  const [organization] = await db
    .insert(organizations)
    .values({ id: `org_${randomUUID().slice(0, 12)}`, name: `org-${randomUUID()}`, displayName: "Acme" })
    .returning();
  if (!organization) throw new Error("no organization");
  const connection = await insertConnection(db, secrets, {
    organizationId: organization.id,
    kind: "AWS",
    method: "keys",
    fields: { ACCOUNT_ID: MOTO_ACCOUNT_ID, ACCESS_KEY_ID: motoCredentials.accessKeyId, REGION: region },
    secretFields: { SECRET_ACCESS_KEY: motoCredentials.secretAccessKey },
  });
  const [environment] = await db
    .insert(environments)
    .values({
      tenantId: organization.tenantId,
      name: `env-${randomUUID().slice(0, 8)}`,
      cloudProvider: "AWS",
      region,
      cloudConnectionId: connection.id,
    })
    .returning();
  if (!environment) throw new Error("no environment");
  return environment;
}

async function deployQueue(
  db: Database,
  engine: Operations,
  environment: EnvironmentRow,
  { name = "orders", serviceType = "queue" }: { name?: string; serviceType?: ServiceType } = {},
): Promise<string> {
  return db.transaction(async (tx) => {
    const created = await createService(
      tx,
      {
        environment,
        serviceType,
        name,
        config: defaultServiceConfigs[serviceType],
        settings: defaultServiceSettings,
        launch: true,
        actor: "Ada Lovelace",
      },
      clock,
    );
    if (!created) throw new Error("no service");
    await engine.deploys.enqueue(
      tx,
      {
        resource: created.resource,
        environment,
        historyId: created.history.id,
        action: "Create",
        deployNumber: 1,
      },
      clock,
    );
    return created.resource.id;
  });
}

async function observe(db: Database, resourceId: string) {
  const [row] = await db.select().from(resources).where(eq(resources.id, resourceId));
  // The service's latest deployment.
  const [job] = await db
    .select()
    .from(engineJobs)
    .where(
      and(eq(engineJobs.kind, DEPLOY_JOB_KIND), sql`${engineJobs.payload}->>'resourceId' = ${resourceId}`),
    )
    .orderBy(desc(engineJobs.createdAt))
    .limit(1);
  return { row, job };
}

/** The pod whose name a deployment's log lines carry. */
const podNameOf = (job: { payload: Record<string, unknown> } | undefined) =>
  (job?.payload.podNames as string[] | undefined)?.[0];

async function logsOf(db: Database, resourceId: string) {
  const lines = await db.select().from(resourceLogs).where(eq(resourceLogs.resourceId, resourceId));
  return lines.map((line) => `${line.podName} ${line.level} ${line.message}`);
}

/** The queues SQS holds whose name starts with the environment's, by name. */
async function queuesOf(environment: EnvironmentRow): Promise<string[]> {
  const { QueueUrls = [] } = await sqs.send(new ListQueuesCommand({ QueueNamePrefix: environment.name }));
  return QueueUrls;
}

describe("the AWS driver", () => {
  let database: OpenDatabase;
  beforeAll(async () => {
    database = await openTestDb();
  });
  afterAll(() => database.close());

  it("creates a queue step by step, changes it in place, and tears it down on delete", async () => {
    const { db } = database;
    const environment = await awsEnvironment(db);
    const engine = engineOn(db, { queue: testQueueProvisioner() });
    const resourceId = await deployQueue(db, engine, environment);

    expect(await engine.runner.runDue()).toBe(1);
    let { row, job } = await observe(db, resourceId);
    expect(row).toMatchObject({ stage: "STAGE_IN_PROGRESS", endpoint: null });
    expect(job).toMatchObject({ state: "PHASE_0", status: "queued", leaseOwner: null });
    const [queueUrl] = await queuesOf(environment);
    expect(row?.cloudState).toEqual({ queueUrl });
    const podName = row?.pods[0]?.name;
    expect(podName).toBeTruthy();
    // What the step works on first, then what it did.
    expect(await logsOf(db, resourceId)).toEqual([
      `${podName} info Creating the queue`,
      `${podName} info Created SQS queue ${environment.name}-orders`,
    ]);

    // Not before the step's wait is over.
    expect(await engine.runner.runDue()).toBe(0);
    advance(1000);
    expect(await engine.runner.runDue()).toBe(1);
    ({ row, job } = await observe(db, resourceId));
    expect(job).toMatchObject({ state: "COMPLETED", status: "succeeded" });
    expect(row).toMatchObject({ stage: "STAGE_COMPLETED", endpoint: queueUrl, message: null });
    expect(row?.cloudOutputs).toEqual({
      queueArn: `arn:aws:sqs:${region}:${MOTO_ACCOUNT_ID}:${environment.name}-orders`,
    });
    const { Tags } = await sqs.send(new ListQueueTagsCommand({ QueueUrl: queueUrl }));
    const [organization] = await db
      .select()
      .from(organizations)
      .where(eq(organizations.tenantId, environment.tenantId));
    expect(Tags).toEqual({
      [TAG_ORGANIZATION]: organization?.id,
      [TAG_ENVIRONMENT]: environment.id,
      [TAG_SERVICE]: resourceId,
      Name: `${environment.name}-orders`,
    });

    // A change of configuration: the provisioner's plan is in the history and the logs, and lands in place.
    const changed = { ...defaultServiceConfigs.queue, visibilityTimeoutSeconds: 120 };
    const relaunch = await db.transaction(async (tx) => {
      const [saved] = await tx
        .update(resources)
        .set({ config: changed })
        .where(eq(resources.id, resourceId))
        .returning();
      if (!saved || !row) throw new Error("no service");
      return engine.deploys.launch(
        tx,
        {
          resource: saved,
          environment,
          action: "Relaunch",
          actor: "Ada Lovelace",
          diff: [{ path: "config.visibilityTimeoutSeconds", before: 30, after: 120 }],
          previous: row,
        },
        clock,
      );
    });
    const [entry] = await db
      .select()
      .from(resourceHistory)
      .where(eq(resourceHistory.resourceId, resourceId))
      .orderBy(resourceHistory.at)
      .offset(1);
    expect(entry?.message).toBe("Updates in place: Visibility timeout (seconds).");
    await engine.runner.runUntilIdle();
    expect((await observe(db, resourceId)).row).toMatchObject({
      stage: "STAGE_COMPLETED",
      endpoint: queueUrl,
    });
    expect(relaunch.stage).toBe("STAGE_QUEUED");
    const { Attributes } = await sqs.send(
      new GetQueueAttributesCommand({ QueueUrl: queueUrl, AttributeNames: ["VisibilityTimeout"] }),
    );
    expect(Attributes?.VisibilityTimeout).toBe("120");
    const [relaunchPod] = relaunch.job.payload.podNames as string[];
    expect(await logsOf(db, resourceId)).toContain(
      `${relaunchPod} info Updates in place: Visibility timeout (seconds).`,
    );
    expect(await queuesOf(environment)).toEqual([queueUrl]);

    // Delete: the service stays, in progress, until AWS has torn the queue down; then the row goes.
    const removal = await db.transaction(async (tx) => {
      const [locked] = await tx.select().from(resources).where(eq(resources.id, resourceId)).for("update");
      if (!locked) throw new Error("no service");
      return engine.teardowns.remove(tx, { resource: locked, environment }, clock);
    });
    expect(removal).toBe("teardown");
    expect((await observe(db, resourceId)).row).toMatchObject({
      stage: "STAGE_IN_PROGRESS",
      message: "Deleting: tearing down what the service created in its cloud.",
    });
    expect(await engine.runner.runUntilIdle()).toBe(1);
    expect((await observe(db, resourceId)).row).toBeUndefined();
    expect(await queuesOf(environment)).toEqual([]);
  });

  it("lets a second instance take over a create whose instance died, with no duplicate in AWS", async () => {
    const { db } = database;
    const environment = await awsEnvironment(db);
    let reached: () => void = () => undefined;
    const created = new Promise<void>((resolve) => (reached = resolve));
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    let creates = 0;
    // The first instance dies right after AWS created the queue: it never records it, nor beats again.
    const dying = engineOn(
      db,
      {
        queue: testQueueProvisioner({
          afterCreate: async () => {
            if (creates++ > 0) return;
            reached();
            await released;
          },
        }),
      },
      { instanceId: "dying", heartbeatMs: 3_600_000 },
    );
    const resourceId = await deployQueue(db, dying, environment);
    const stuck = dying.runner.runDue();
    await created;
    expect(await queuesOf(environment)).toHaveLength(1);

    const takeover = engineOn(db, { queue: testQueueProvisioner() }, { instanceId: "takeover" });
    expect(await takeover.runner.runDue()).toBe(0);
    advance(JOB_LEASE_MS);
    expect(await takeover.runner.runDue()).toBe(1);
    advance(1000);
    expect(await takeover.runner.runDue()).toBe(1);
    const { row, job } = await observe(db, resourceId);
    expect(job?.history.map((entry) => entry.state)).toEqual(["QUEUED", "PHASE_0", "COMPLETED"]);
    const queues = await queuesOf(environment);
    expect(queues).toHaveLength(1);
    expect(row).toMatchObject({ stage: "STAGE_COMPLETED", endpoint: queues[0] });

    // The dead instance's late answer is dropped: nothing is logged or recorded twice.
    const warnings = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    release();
    await stuck;
    warnings.mockRestore();
    expect((await observe(db, resourceId)).job?.state).toBe("COMPLETED");
    const logs = await logsOf(db, resourceId);
    expect(logs.filter((line) => line.includes("Created SQS queue"))).toHaveLength(1);
  });

  it("fails with AWS's error code and message in the service's message and logs", async () => {
    const { db } = database;
    const environment = await awsEnvironment(db);
    // Someone created a queue of that name by hand, with other attributes: SQS refuses to create ours.
    await sqs.send(
      new CreateQueueCommand({
        QueueName: `${environment.name}-orders`,
        Attributes: { VisibilityTimeout: "5" },
      }),
    );
    const engine = engineOn(db, { queue: testQueueProvisioner() });
    const resourceId = await deployQueue(db, engine, environment);
    const errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
    await engine.runner.runUntilIdle();
    errors.mockRestore();
    const { row, job } = await observe(db, resourceId);
    expect(row?.stage).toBe("STAGE_FAILED");
    expect(row?.message).toBe("QueueNameExists: The specified queue already exists.");
    expect(job).toMatchObject({ state: "FAILED", status: "failed", details: row?.message });
    expect(await logsOf(db, resourceId)).toContain(`${podNameOf(job)} error ${row?.message}`);

    // A type without a provisioner says so.
    const database2 = await deployQueue(db, engine, environment, {
      name: "ledger",
      serviceType: "nosql-database",
    });
    await engine.runner.runUntilIdle();
    expect((await observe(db, database2)).row).toMatchObject({
      stage: "STAGE_FAILED",
      message: "NoSQL database services cannot be deployed to AWS yet.",
    });
  });

  it("keeps a service whose teardown AWS refused, failed with AWS's words, until a DELETE again tears it down", async () => {
    const { db } = database;
    const environment = await awsEnvironment(db);
    const queue = testQueueProvisioner({ waitMs: 0 });
    let refuse = true;
    const guarded: Provisioner = {
      ...queue,
      async destroy(context) {
        if (refuse) {
          throw Object.assign(new Error("User is not authorized to perform: sqs:DeleteQueue"), {
            name: "AccessDenied",
            $fault: "client",
            $metadata: { httpStatusCode: 403 },
          });
        }
        return queue.destroy(context);
      },
    };
    const engine = engineOn(db, { queue: guarded });
    const resourceId = await deployQueue(db, engine, environment, { name: "audit" });
    await engine.runner.runUntilIdle();
    const remove = () =>
      db.transaction(async (tx) => {
        const [locked] = await tx.select().from(resources).where(eq(resources.id, resourceId)).for("update");
        if (!locked) throw new Error("no service");
        return engine.teardowns.remove(tx, { resource: locked, environment }, clock);
      });

    expect(await remove()).toBe("teardown");
    await engine.runner.runUntilIdle();
    const message = "AccessDenied: User is not authorized to perform: sqs:DeleteQueue";
    const { row } = await observe(db, resourceId);
    expect(row).toMatchObject({ stage: "STAGE_FAILED", message });
    expect(await logsOf(db, resourceId)).toContain(`${row?.pods[0]?.name} error ${message}`);
    expect(await queuesOf(environment)).toHaveLength(1);

    refuse = false;
    expect(await remove()).toBe("teardown");
    await engine.runner.runUntilIdle();
    expect((await observe(db, resourceId)).row).toBeUndefined();
    expect(await queuesOf(environment)).toEqual([]);
  });

  it("tries a throttled step again, and fails with the throttling once its attempts are spent", async () => {
    const { db } = database;
    const environment = await awsEnvironment(db);
    const queue = testQueueProvisioner();
    let throttles = 1;
    let calls = 0;
    const throttled: Provisioner = {
      ...queue,
      async apply(context) {
        calls += 1;
        if (throttles-- > 0) {
          throw Object.assign(new Error("Rate exceeded"), {
            name: "ThrottlingException",
            $fault: "client",
            $metadata: { httpStatusCode: 400 },
          });
        }
        return queue.apply(context);
      },
    };
    const engine = engineOn(db, { queue: throttled });
    const resourceId = await deployQueue(db, engine, environment);
    // At ENGINE_TIME_SCALE=0 the runner's backoff is nothing: the second attempt follows at once.
    expect(await engine.runner.runDue()).toBe(2);
    expect(calls).toBe(2);
    expect((await observe(db, resourceId)).job).toMatchObject({ state: "PHASE_0", attempts: 0 });
    advance(1000);
    await engine.runner.runUntilIdle();
    expect((await observe(db, resourceId)).row?.stage).toBe("STAGE_COMPLETED");

    throttles = 100;
    const other = await deployQueue(db, engine, environment, { name: "invoices" });
    const errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
    await engine.runner.runUntilIdle();
    errors.mockRestore();
    const { row, job } = await observe(db, other);
    expect(row).toMatchObject({ stage: "STAGE_FAILED", message: "ThrottlingException: Rate exceeded" });
    expect(job).toMatchObject({ state: "FAILED", status: "failed" });
    expect(await logsOf(db, other)).toContain(`${podNameOf(job)} error ThrottlingException: Rate exceeded`);
  });

  it("fails a deployment past its type's time-out, saying what it waited for", async () => {
    const { db } = database;
    const environment = await awsEnvironment(db);
    const queue = testQueueProvisioner();
    const neverReady: Provisioner = {
      ...queue,
      apply: async (context) => ({
        done: false,
        state: { ...context.state },
        waitMs: 2 * 60_000,
        progress: "Waiting for the queue to become available",
      }),
    };
    const engine = engineOn(db, { queue: neverReady });
    const resourceId = await deployQueue(db, engine, environment);
    await engine.runner.runDue();
    advance(2 * 60_000);
    await engine.runner.runDue();
    expect((await observe(db, resourceId)).row?.stage).toBe("STAGE_IN_PROGRESS");
    advance(2 * 60_000);
    await engine.runner.runDue();
    expect((await observe(db, resourceId)).row?.stage).toBe("STAGE_IN_PROGRESS");
    advance(2 * 60_000);
    await engine.runner.runDue();
    const message =
      'Timed out after 5 minutes waiting for "Waiting for the queue to become available" to finish.';
    const { row, job } = await observe(db, resourceId);
    expect(row).toMatchObject({ stage: "STAGE_FAILED", message });
    expect(job).toMatchObject({ status: "failed", details: message });
    expect(await logsOf(db, resourceId)).toContain(`${podNameOf(job)} error ${message}`);
  });
});

describe("what a waiting deployment waits for", () => {
  let database: OpenDatabase;
  beforeAll(async () => {
    database = await openTestDb();
  });
  afterAll(() => database.close());

  it("says what the running step waits for and since when, also while AWS does not answer", async () => {
    const { db } = database;
    const environment = await awsEnvironment(db);
    const queue = testQueueProvisioner();
    let resourceId = "";
    let answering = true;
    // What the service said it waits for each time the engine tried the step while AWS did not answer.
    const saidWhileSilent: unknown[] = [];
    const slow: Provisioner = {
      ...queue,
      apply: async (context) => {
        if (!answering) {
          saidWhileSilent.push(await deployProgressOf(db, resourceId));
          throw Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:1"), {
            code: "ECONNREFUSED",
            address: "127.0.0.1",
            port: 1,
            $metadata: { attempts: 2 },
          });
        }
        return {
          done: false,
          state: { ...context.state },
          waitMs: 30_000,
          progress: "Waiting for the queue orders to become available",
        };
      },
    };
    const engine = engineOn(db, { queue: slow });
    resourceId = await deployQueue(db, engine, environment);
    expect(await deployProgressOf(db, resourceId)).toBeNull();

    advance(1_000);
    const waitingSince = clock.toISOString();
    await engine.runner.runDue();
    const waiting = { step: "Waiting for the queue orders to become available", since: waitingSince };
    expect(await deployProgressOf(db, resourceId)).toEqual(waiting);

    // The same wait, asked again: it is still the one that began then.
    advance(30_000);
    await engine.runner.runDue();
    expect(await deployProgressOf(db, resourceId)).toEqual(waiting);

    // AWS stops answering: each time the engine tries the step again, the service still says what it waits for.
    answering = false;
    advance(30_000);
    const errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
    // The retries are due at once (time scale 0); a run that found none due (a lease the heartbeat extended on a
    // loaded machine) goes on once the clock passes the lease.
    for (let round = 0; saidWhileSilent.length < STEP_ATTEMPTS && round < STEP_ATTEMPTS * 2; round++) {
      if ((await engine.runner.runDue()) === 0) advance(JOB_LEASE_MS);
    }
    errors.mockRestore();
    expect(saidWhileSilent).toEqual(Array.from({ length: STEP_ATTEMPTS }, () => waiting));
    // Once the engine gave up, the service is failed, in words, and waits for nothing.
    expect((await observe(db, resourceId)).row).toMatchObject({
      stage: "STAGE_FAILED",
      message:
        "AWS could not be reached at 127.0.0.1:1 (the connection was refused). Code for support: ECONNREFUSED",
    });
    expect(await deployProgressOf(db, resourceId)).toBeNull();
  });
});

describe("a platform restart in the middle of an AWS create", () => {
  let store: Awaited<ReturnType<typeof openReopenableTestDb>>;
  beforeAll(async () => {
    store = await openReopenableTestDb();
  });
  afterAll(() => store.dispose());

  it("finishes the create after the restart without a duplicate", { timeout: 120_000 }, async () => {
    let database = await store.open();
    const environment = await awsEnvironment(database.db);
    let reached: () => void = () => undefined;
    const created = new Promise<void>((resolve) => (reached = resolve));
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    const before = engineOn(database.db, {
      queue: testQueueProvisioner({
        afterCreate: async () => {
          reached();
          await released;
        },
      }),
    });
    const resourceId = await deployQueue(database.db, before, environment);
    const interrupted = before.runner.runDue();
    await created;

    // The platform goes down between AWS's answer and its record: no transaction is open, the connection closes.
    await database.close();
    advance(60_000);
    database = await store.open();
    const after = engineOn(database.db, { queue: testQueueProvisioner() });
    await after.runner.runDue();
    advance(1000);
    await after.runner.runDue();

    const { row, job } = await observe(database.db, resourceId);
    expect(job?.status).toBe("succeeded");
    const queues = await queuesOf(environment);
    expect(queues).toHaveLength(1);
    expect(row).toMatchObject({ stage: "STAGE_COMPLETED", endpoint: queues[0] });
    expect(
      (await logsOf(database.db, resourceId)).filter((line) => line.includes("Created SQS queue")),
    ).toHaveLength(1);

    // The old process's answer arrives at a closed connection and is lost, as it would be with the process.
    release();
    await expect(interrupted).rejects.toThrow();
    await database.close();
  });
});
