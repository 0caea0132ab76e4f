import { randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { DescribeCertificateCommand } from "@aws-sdk/client-acm";
import { StopDBInstanceCommand } from "@aws-sdk/client-rds";
import { CreateQueueCommand, DeleteQueueCommand, ListQueuesCommand } from "@aws-sdk/client-sqs";
import { asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type ServiceType } from "#contract/service-catalogue";
import { defaultServiceSettings } from "#contract/services";
import { defaultServiceConfigs } from "#contract/service-configs";
import { MOTO_ACCOUNT_ID, motoCredentials } from "../../tests/setup/moto-server";
import type { Database, OpenDatabase } from "../db/index";
import { environments, organizations, resourceHistory, resourceLogs, resources } from "../db/schema";
import { openTestDb } from "../testing/db";
import type { EnvironmentRow } from "../environments/records";
import { insertConnection } from "../testing/notification-connections";
import { secretCipherFor, type SecretCipher } from "../lib/cipher";
import { createService } from "../services/services";
import { toResourceSummary } from "../services/records";
import type { Provisioner } from "../cloud/aws/provisioner";
import { awsProvisioners } from "../cloud/aws/provisioners";
import { queueProvisioner } from "../cloud/aws/queue";
import { createTestNetwork, testRegion } from "../testing/aws-provisioning";
import { setUpMoto } from "../testing/aws";
import { createDriftChecks, type DriftChecks } from "./drift-checks";
import { createOperations, type Operations } from "../operations/operations";

/*
 * The drift check against moto_server, through the engine: services of an environment in an AWS connection are
 * deployed with the platform's provisioners, then changed behind its back (a queue deleted, an RDS instance
 * stopped). The next check fails exactly those with what changed and what to do, and completes them again once
 * they are back; a deployment that starts while AWS is asked wins, an unreachable cloud marks nothing, and two
 * workers never check the same service twice. The clock is the test's.
 */

const INTERVAL_MS = 60_000;

// ACM issues a certificate ACM_VALIDATION_WAIT_S seconds after its request (moto's stand-in for DNS validation).
const ACM_VALIDATION_WAIT_S = 8;
const moto = setUpMoto({
  region: testRegion,
  maxAttempts: 1,
  settings: { MOTO_ACM_VALIDATION_WAIT: String(ACM_VALIDATION_WAIT_S) },
});
const { aws } = moto;
let dataDir: string;
let secrets: SecretCipher;
let database: OpenDatabase;
let clock = new Date("2033-01-01T00:00:00.000Z");
const advance = (ms: number) => {
  clock = new Date(clock.getTime() + ms);
};

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), "drift-checks-"));
  secrets = secretCipherFor({ dataDir });
  database = await openTestDb();
}, 120_000);
afterAll(async () => {
  await database?.close();
  await rm(dataDir, { recursive: true, force: true });
});

function engineWith(provisioners: Partial<Record<ServiceType, Provisioner>> = awsProvisioners): Operations {
  return createOperations({
    db: database.db,
    config: {
      engine: { timeScale: 0, pollIntervalMs: 5, failureInjection: false },
      appUrl: "http://localhost:3000",
      terraform: { awsEndpoint: moto.endpoint },
    },
    secrets,
    now: () => clock,
    provisioners,
  });
}

const driftChecksOf = (engine: Operations): DriftChecks =>
  createDriftChecks({ db: database.db, deploys: engine.deploys, intervalMs: INTERVAL_MS, now: () => clock });

/** An organization with an AWS connection (access keys moto accepts) and an environment running in it. */
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
    fields: { ACCOUNT_ID: MOTO_ACCOUNT_ID, ACCESS_KEY_ID: motoCredentials.accessKeyId, REGION: testRegion },
    secretFields: { SECRET_ACCESS_KEY: motoCredentials.secretAccessKey },
  });
  const [environment] = await db
    .insert(environments)
    .values({
      tenantId: organization.tenantId,
      name: `env-${randomUUID().slice(0, 8)}`,
      cloudProvider: "AWS",
      region: testRegion,
      cloudConnectionId: connection.id,
    })
    .returning();
  if (!environment) throw new Error("no environment");
  return environment;
}

/** Deploys a service of the type's default configuration, moving the clock past every wait until it is done. */
async function deploy(
  engine: Operations,
  environment: EnvironmentRow,
  serviceType: ServiceType,
  name: string,
  config: Record<string, unknown> = defaultServiceConfigs[serviceType],
): Promise<string> {
  const { db } = database;
  const id = await db.transaction(async (tx) => {
    const created = await createService(
      tx,
      {
        environment,
        serviceType,
        name,
        config,
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
  for (let round = 0; round < 50 && (await rowOf(id)).stage !== "STAGE_COMPLETED"; round++) {
    await engine.runner.runUntilIdle();
    advance(60_000);
  }
  expect(await rowOf(id)).toMatchObject({ stage: "STAGE_COMPLETED" });
  return id;
}

/** The environment's network, created in moto directly, as a deployed network service its other services use. */
async function insertNetwork(environment: EnvironmentRow) {
  await database.db.insert(resources).values({
    environmentId: environment.id,
    name: "network",
    serviceType: "network",
    stage: "STAGE_COMPLETED",
    config: defaultServiceConfigs.network,
    settings: defaultServiceSettings,
    cloudOutputs: await createTestNetwork(moto),
  });
}

async function rowOf(id: string) {
  const [row] = await database.db.select().from(resources).where(eq(resources.id, id));
  if (!row) throw new Error(`no service ${id}`);
  return row;
}

async function historyOf(id: string) {
  return database.db
    .select()
    .from(resourceHistory)
    .where(eq(resourceHistory.resourceId, id))
    .orderBy(asc(resourceHistory.at));
}

async function queueUrlOf(name: string): Promise<string> {
  const sqs = await aws.sqs();
  const { QueueUrls = [] } = await sqs.send(new ListQueuesCommand({ QueueNamePrefix: name }));
  const url = QueueUrls.find((candidate) => candidate.endsWith(`/${name}`));
  if (!url) throw new Error(`no queue ${name}`);
  return url;
}

describe("the drift check", { timeout: 120_000 }, () => {
  it("fails a queue deleted behind the platform's back, leaves the others alone, and completes it once it is back", async () => {
    const engine = engineWith();
    const checks = driftChecksOf(engine);
    const environment = await awsEnvironment(database.db);
    const orders = await deploy(engine, environment, "queue", "orders");
    const invoices = await deploy(engine, environment, "queue", "invoices");
    const invoicesBefore = await rowOf(invoices);

    expect(await checks.runDue()).toBe(2);
    expect(await rowOf(orders)).toMatchObject({ stage: "STAGE_COMPLETED", message: null });
    const queueName = `${environment.name}-orders`;
    const queueUrl = await queueUrlOf(queueName);
    await (await aws.sqs()).send(new DeleteQueueCommand({ QueueUrl: queueUrl }));

    // Each service once per interval.
    expect(await checks.runDue()).toBe(0);
    advance(INTERVAL_MS);
    expect(await checks.runDue()).toBe(2);
    const message =
      `The SQS queue ${queueName} no longer exists: it was deleted outside the console. ` +
      "Relaunch the service to recreate it.";
    const drifted = await rowOf(orders);
    expect(drifted).toMatchObject({ stage: "STAGE_FAILED", message, driftedAt: clock });
    // The API says it drifted, so the page can say what happened rather than "Deployment failed".
    expect(toResourceSummary(drifted, environment, undefined)).toMatchObject({
      stage: "STAGE_FAILED",
      message,
      driftedAt: clock.toISOString(),
    });
    expect((await historyOf(orders)).at(-1)).toMatchObject({
      action: "Check",
      actor: "Platform",
      outcome: "STAGE_FAILED",
      message,
      finishedAt: clock,
    });
    const lines = await database.db.select().from(resourceLogs).where(eq(resourceLogs.resourceId, orders));
    expect(lines.at(-1)).toMatchObject({ level: "warn", message });
    // The other queue is as it was.
    const untouched = await rowOf(invoices);
    expect(untouched).toMatchObject({ stage: "STAGE_COMPLETED", message: null, driftedAt: null });
    expect(untouched.updatedAt).toEqual(invoicesBefore.updatedAt);
    expect((await historyOf(invoices)).map((entry) => entry.action)).toEqual(["Create"]);

    // Still gone at the next check: nothing new.
    advance(INTERVAL_MS);
    expect(await checks.runDue()).toBe(2);
    expect(await historyOf(orders)).toHaveLength(2);

    // Someone creates it again where it was: the next check completes the service.
    await (await aws.sqs()).send(new CreateQueueCommand({ QueueName: queueName }));
    advance(INTERVAL_MS);
    await checks.runDue();
    expect(await rowOf(orders)).toMatchObject({ stage: "STAGE_COMPLETED", message: null, driftedAt: null });
    expect((await historyOf(orders)).at(-1)).toMatchObject({
      action: "Check",
      outcome: "STAGE_COMPLETED",
      message: "Nothing differs from the deployed configuration any more: the service is deployed.",
    });
  });

  it("fails a database whose RDS instance was stopped outside the platform", async () => {
    const engine = engineWith();
    const environment = await awsEnvironment(database.db);
    await insertNetwork(environment);
    const id = await deploy(engine, environment, "database", "reports");
    const identifier = (await rowOf(id)).cloudState?.dbInstanceArn?.split(":").at(-1);
    expect(identifier).toBeTruthy();
    await (await aws.rds()).send(new StopDBInstanceCommand({ DBInstanceIdentifier: identifier }));

    advance(INTERVAL_MS);
    await driftChecksOf(engine).runDue();
    expect(await rowOf(id)).toMatchObject({
      stage: "STAGE_FAILED",
      message:
        `The DB instance ${identifier} was stopped outside the console (status stopped). ` +
        "Relaunch the service to bring it back to its configuration.",
    });
  });

  it("shows a certificate waiting for DNS validation as deployed with the records to create, not as drift", async () => {
    const engine = engineWith();
    const checks = driftChecksOf(engine);
    const environment = await awsEnvironment(database.db);
    const id = await deploy(engine, environment, "tls", "api-certificate", {
      domain: "api.example.com",
      subjectAlternativeNames: [],
      validationMethod: "dns",
    });
    const { cloudOutputs } = await rowOf(id);
    const pending =
      "Pending validation: ACM issues the certificate once these DNS records exist: " +
      `${cloudOutputs?.validationRecord1Name} CNAME ${cloudOutputs?.validationRecord1Value} (validates api.example.com).`;
    expect(await rowOf(id)).toMatchObject({ stage: "STAGE_COMPLETED", message: pending, driftedAt: null });

    advance(INTERVAL_MS);
    await checks.runDue();
    expect(await rowOf(id)).toMatchObject({ stage: "STAGE_COMPLETED", message: pending, driftedAt: null });
    expect((await historyOf(id)).map((entry) => entry.action)).toEqual(["Create"]);

    // ACM issues it: the next check says so, once, and the detail goes.
    const arn = cloudOutputs?.certificateArn;
    const acm = await aws.acm();
    await vi.waitFor(
      async () => {
        const { Certificate } = await acm.send(new DescribeCertificateCommand({ CertificateArn: arn }));
        expect(Certificate?.Status).toBe("ISSUED");
      },
      { timeout: (ACM_VALIDATION_WAIT_S + 10) * 1000, interval: 500 },
    );
    advance(INTERVAL_MS);
    await checks.runDue();
    expect(await rowOf(id)).toMatchObject({ stage: "STAGE_COMPLETED", message: null, driftedAt: null });
    expect((await historyOf(id)).map((entry) => entry.action)).toEqual(["Create"]);
    const lines = await database.db.select().from(resourceLogs).where(eq(resourceLogs.resourceId, id));
    expect(lines.at(-1)).toMatchObject({ level: "info", message: "The certificate is issued." });
  });

  it("drops its finding when a deployment started while AWS was asked", async () => {
    let reached: () => void = () => undefined;
    const asked = new Promise<void>((resolve) => (reached = resolve));
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    const engine = engineWith({
      queue: {
        ...queueProvisioner,
        async observe() {
          reached();
          await released;
          return { state: "missing", message: "The SQS queue is gone" };
        },
      },
    });
    const environment = await awsEnvironment(database.db);
    const id = await deploy(engine, environment, "queue", "orders");
    const checking = driftChecksOf(engine).checkNext();
    await asked;
    await database.db.transaction(async (tx) => {
      const [row] = await tx.select().from(resources).where(eq(resources.id, id)).for("update");
      if (!row) throw new Error("no service");
      await engine.deploys.launch(
        tx,
        { resource: row, environment, action: "Relaunch", actor: "Ada Lovelace", diff: [] },
        clock,
      );
    });
    release();
    expect(await checking).toBe("superseded");
    expect(await rowOf(id)).toMatchObject({ stage: "STAGE_QUEUED", message: null, driftedAt: null });
    expect((await historyOf(id)).map((entry) => entry.action)).toEqual(["Create", "Relaunch"]);
  });

  it("marks nothing while the cloud cannot be reached, and says so once", async () => {
    const engine = engineWith({
      queue: {
        ...queueProvisioner,
        observe: () =>
          Promise.reject(Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" })),
      },
    });
    const environment = await awsEnvironment(database.db);
    const id = await deploy(engine, environment, "queue", "orders");
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    try {
      const checks = driftChecksOf(engine);
      advance(INTERVAL_MS);
      await checks.runDue();
      advance(INTERVAL_MS);
      await checks.runDue();
      const ours = warn.mock.calls
        .map(([message]) => String(message))
        .filter((message) => message.includes(environment.cloudConnectionId ?? "?"));
      expect(ours).toHaveLength(1);
      expect(ours[0]).toContain("ECONNREFUSED");
    } finally {
      warn.mockRestore();
    }
    expect(await rowOf(id)).toMatchObject({ stage: "STAGE_COMPLETED", message: null, driftedAt: null });
  });

  it("never lets two workers check the same service", async () => {
    const observed: string[] = [];
    const counting: Provisioner = {
      ...queueProvisioner,
      async observe(context) {
        observed.push(context.resource.id);
        return queueProvisioner.observe(context);
      },
    };
    const provisioners = { ...awsProvisioners, queue: counting };
    const engine = engineWith(provisioners);
    const environment = await awsEnvironment(database.db);
    const ids = [
      await deploy(engine, environment, "queue", "one"),
      await deploy(engine, environment, "queue", "two"),
      await deploy(engine, environment, "queue", "three"),
    ];
    advance(INTERVAL_MS);
    // Two platform instances, each with its own engine and worker, on one database.
    await Promise.all([driftChecksOf(engine).runDue(), driftChecksOf(engineWith(provisioners)).runDue()]);
    expect(ids.map((id) => observed.filter((one) => one === id).length)).toEqual([1, 1, 1]);
    expect(await Promise.all(ids.map(async (id) => (await rowOf(id)).driftCheckedAt))).toEqual([
      clock,
      clock,
      clock,
    ]);
  });
});
