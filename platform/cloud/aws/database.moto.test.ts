import { CreateLogGroupCommand, DescribeLogGroupsCommand } from "@aws-sdk/client-cloudwatch-logs";
import {
  DescribeDBInstancesCommand,
  DescribeDBSnapshotsCommand,
  DescribeDBSubnetGroupsCommand,
  StopDBInstanceCommand,
} from "@aws-sdk/client-rds";
import { GetSecretValueCommand, ListSecretsCommand } from "@aws-sdk/client-secrets-manager";
import { beforeAll, describe, expect, it } from "vitest";
import { databaseProvisioner } from "./database";
import { listFinalSnapshots } from "./final-snapshots";
import { TAG_ENVIRONMENT, TAG_ORGANIZATION, TAG_SERVICE } from "./provisioner";
import {
  applyUntilDone,
  contextFor,
  createTestNetwork,
  destroyUntilDone,
  testRegion,
  taggedWithService,
  testResource,
  expectListedSecrets,
} from "../../testing/aws-provisioning";
import { setUpMoto } from "../../testing/aws";

const moto = setUpMoto({ region: testRegion, maxAttempts: 1 });
const { aws } = moto;
let network: Record<string, string>;

beforeAll(async () => {
  network = await createTestNetwork(moto);
}, 120_000);

async function instancesOf(serviceId: string) {
  const rds = await aws.rds();
  const answer = await rds.send(new DescribeDBInstancesCommand({}));
  return (answer.DBInstances ?? []).filter((instance) =>
    instance.TagList?.some((tag) => tag.Key === TAG_SERVICE && tag.Value === serviceId),
  );
}

async function snapshotsOf(serviceId: string) {
  const answer = await (await aws.rds()).send(new DescribeDBSnapshotsCommand({}));
  // Automated snapshots (the daily backups) go with the instance; manual ones stay.
  return (answer.DBSnapshots ?? []).filter(
    (snapshot) =>
      snapshot.SnapshotType === "manual" &&
      snapshot.TagList?.some((tag) => tag.Key === TAG_SERVICE && tag.Value === serviceId),
  );
}

async function secretsOf(serviceId: string) {
  const secrets = await aws.secretsManager();
  const answer = await secrets.send(new ListSecretsCommand({}));
  return (answer.SecretList ?? []).filter((secret) =>
    secret.Tags?.some((tag) => tag.Key === TAG_SERVICE && tag.Value === serviceId),
  );
}

describe("the database provisioner against moto", { timeout: 120_000 }, () => {
  it("creates an RDS instance with its password in Secrets Manager, changes it in place or replaces it, and deletes everything", async () => {
    const resource = testResource("database", { name: "orders" });
    const context = contextFor(aws, resource, network);

    const created = await applyUntilDone(databaseProvisioner, context);
    expectListedSecrets(databaseProvisioner, resource, created.result.secrets);
    expect(created.progress).toContain("Creating the DB instance");
    const [instance] = await instancesOf(resource.id);
    expect(instance).toMatchObject({
      Engine: "postgres",
      EngineVersion: "17",
      DBInstanceClass: "db.t4g.micro",
      AllocatedStorage: 20,
      MultiAZ: false,
      BackupRetentionPeriod: 7,
      MasterUsername: "admin",
      PubliclyAccessible: false,
      DBSubnetGroup: { DBSubnetGroupName: created.result.state.dbSubnetGroupName },
      EnabledCloudwatchLogsExports: ["postgresql"],
    });
    // The logs tab reads the group RDS exports the server's log to.
    const identifier = instance?.DBInstanceIdentifier ?? "";
    expect(created.result.outputs.logGroups).toBe(`/aws/rds/instance/${identifier}/postgresql`);
    expect(instance?.VpcSecurityGroups?.map((group) => group.VpcSecurityGroupId)).toEqual([
      network.securityGroupId,
    ]);
    const { Address: host, Port: port } = instance?.Endpoint ?? {};
    expect(created.result.endpoint).toBe(`${host}:${port}`);
    expect(created.result.state.dbInstanceArn).toBe(instance?.DBInstanceArn);

    const secretValue = await (
      await aws.secretsManager()
    ).send(new GetSecretValueCommand({ SecretId: created.result.state.secretArn }));
    expect(created.result.secrets).toEqual({
      password: secretValue.SecretString,
      connectionString: `postgres://admin:${secretValue.SecretString}@${host}:${port}/orders`,
    });
    expect(secretValue.SecretString).toMatch(/^[A-Za-z0-9]{32}$/);
    const subnetGroups = await (
      await aws.rds()
    ).send(new DescribeDBSubnetGroupsCommand({ DBSubnetGroupName: created.result.state.dbSubnetGroupName }));
    expect(
      subnetGroups.DBSubnetGroups?.[0]?.Subnets?.map((subnet) => subnet.SubnetIdentifier).sort(),
    ).toEqual(network.privateSubnetIds?.split(",").sort());
    expect(await databaseProvisioner.observe(context)).toEqual({ state: "ok" });

    // A larger class and storage, Multi-AZ and longer backups: in place, same instance and password.
    const resized = {
      ...resource,
      config: {
        ...resource.config,
        instanceSize: "db.m7g.large",
        storageGb: 100,
        multiAz: true,
        backupRetentionDays: 14,
      },
    };
    expect(databaseProvisioner.plan(resource, resized)).toEqual({
      inPlace: ["config.backupRetentionDays", "config.instanceSize", "config.multiAz", "config.storageGb"],
      replace: [],
    });
    const modified = await applyUntilDone(databaseProvisioner, {
      ...context,
      resource: resized,
      state: created.result.state,
    });
    expect(modified.progress).toEqual(["Modifying the DB instance"]);
    const [after] = await instancesOf(resource.id);
    expect(after).toMatchObject({
      DBInstanceArn: instance?.DBInstanceArn,
      DBInstanceClass: "db.m7g.large",
      AllocatedStorage: 100,
      MultiAZ: true,
      BackupRetentionPeriod: 14,
    });
    expect(modified.result.secrets.password).toBe(created.result.secrets.password);

    // Another engine needs another instance: the old one goes, a MySQL one takes its name.
    const mysql = { ...resized, config: { ...resized.config, engine: "mysql", version: "8.4" } };
    expect(databaseProvisioner.plan(resized, mysql)).toEqual({
      inPlace: [],
      replace: ["config.engine", "config.version"],
    });
    const replaced = await applyUntilDone(databaseProvisioner, {
      ...context,
      resource: mysql,
      state: modified.result.state,
    });
    expect(replaced.progress).toEqual(["Deleting the DB instance to replace it", "Creating the DB instance"]);
    expect(context.logs).toContainEqual({
      level: "warn",
      message: expect.stringContaining("engine postgres → mysql"),
    });
    const instances = await instancesOf(resource.id);
    expect(instances).toHaveLength(1);
    expect(instances[0]).toMatchObject({
      Engine: "mysql",
      EngineVersion: "8.4",
      DBInstanceClass: "db.m7g.large",
    });
    expect(replaced.result.endpoint).toMatch(/:3306$/);
    expect(replaced.result.secrets.connectionString).toMatch(
      /^mysql:\/\/admin:[A-Za-z0-9]{32}@.+:3306\/orders$/,
    );

    // moto does not write exported logs: create the group as RDS would, for the teardown to find.
    const logs = await aws.cloudWatchLogs();
    const exported = `/aws/rds/instance/${identifier}/slowquery`;
    await logs.send(new CreateLogGroupCommand({ logGroupName: exported }));
    const progress = await destroyUntilDone(databaseProvisioner, {
      ...context,
      resource: mysql,
      state: replaced.result.state,
      // A second later than the replacement, whose final snapshot has this second's name.
      now: new Date(context.now.getTime() + 1000),
    });
    expect(progress).toEqual(["Deleting the DB instance"]);
    // What outlives the service: the final snapshots of the replaced instance and of the deleted one.
    const snapshots = await snapshotsOf(resource.id);
    expect(snapshots).toHaveLength(2);
    expect(await taggedWithService(aws, resource.id)).toEqual(
      snapshots.map((snapshot) => snapshot.DBSnapshotArn).sort(),
    );
    expect(await secretsOf(resource.id)).toEqual([]);
    const { logGroups = [] } = await logs.send(
      new DescribeLogGroupsCommand({ logGroupNamePrefix: `/aws/rds/instance/${identifier}/` }),
    );
    expect(logGroups).toEqual([]);
    expect(await databaseProvisioner.observe(context)).toEqual({
      state: "missing",
      message: expect.stringContaining("no longer exists in AWS"),
    });
    // Destroying again finds nothing and is done.
    expect(await databaseProvisioner.destroy({ ...context, state: {} })).toEqual({ done: true });
  });

  it("creates nothing twice when a step is repeated from a stale state", async () => {
    const resource = testResource("database", { name: "9-billing" });
    const context = contextFor(aws, resource, network);
    // The platform died after the first step: its state was never saved, so the next attempt starts from nothing.
    await databaseProvisioner.apply(context);
    await databaseProvisioner.apply(context);
    const done = await applyUntilDone(databaseProvisioner, context);
    const again = await applyUntilDone(databaseProvisioner, context);

    expect(await instancesOf(resource.id)).toHaveLength(1);
    expect(await secretsOf(resource.id)).toHaveLength(1);
    expect(again.result.secrets).toEqual(done.result.secrets);
    expect(again.result.state).toEqual(done.result.state);
    // RDS identifiers must start with a letter: a name starting with a digit gets a prefix.
    expect(done.result.state.dbSubnetGroupName).toMatch(/^svc-9-billing-[a-z0-9]{8}$/);
    expect((await taggedWithService(aws, resource.id)).length).toBe(3);

    await destroyUntilDone(databaseProvisioner, context);
    expect(await taggedWithService(aws, resource.id)).toEqual(
      (await snapshotsOf(resource.id)).map((snapshot) => snapshot.DBSnapshotArn),
    );
  });

  it("keeps a final snapshot named after the instance and the time when less storage replaces it, and when the service is deleted", async () => {
    const resource = testResource("database", { name: "ledger", config: { storageGb: 30 } });
    const environmentId = `env-${resource.id}`;
    const context = contextFor(aws, resource, network, { environmentId });
    const created = await applyUntilDone(databaseProvisioner, context);
    const identifier = created.result.state.dbInstanceArn?.split(":").at(-1) ?? "";

    // A typo: 20 GB instead of 30. RDS storage does not shrink, so the instance is replaced, its data kept.
    const shrunk = { ...resource, config: { ...resource.config, storageGb: 20 } };
    const replaced = await applyUntilDone(databaseProvisioner, {
      ...context,
      resource: shrunk,
      state: created.result.state,
      now: new Date("2026-11-27T07:30:05Z"),
    });
    expect(replaced.progress[0]).toBe("Deleting the DB instance to replace it");
    const replacement = `${identifier}-final-20261127073005`;
    expect(await snapshotsOf(resource.id)).toEqual([
      expect.objectContaining({
        DBSnapshotIdentifier: replacement,
        DBInstanceIdentifier: identifier,
        SnapshotType: "manual",
        AllocatedStorage: 30,
        TagList: expect.arrayContaining([
          { Key: TAG_SERVICE, Value: resource.id },
          { Key: TAG_ENVIRONMENT, Value: environmentId },
          { Key: TAG_ORGANIZATION, Value: "org-1" },
        ]),
      }),
    ]);
    expect(context.logs).toContainEqual({
      level: "warn",
      message: expect.stringContaining(`its data is kept in the final snapshot ${replacement}`),
    });

    await destroyUntilDone(databaseProvisioner, {
      ...context,
      resource: shrunk,
      state: replaced.result.state,
      now: new Date("2026-11-27T08:01:00Z"),
    });
    const kept = (await snapshotsOf(resource.id)).map((snapshot) => snapshot.DBSnapshotIdentifier).sort();
    expect(kept).toEqual([replacement, `${identifier}-final-20261127080100`]);
    // The environment lists them, newest first, with what it takes to restore one.
    const listed = await listFinalSnapshots(aws, environmentId);
    expect(listed.map((snapshot) => snapshot.name)).toEqual([
      `${identifier}-final-20261127080100`,
      replacement,
    ]);
    expect(listed[1]).toEqual({
      name: replacement,
      arn: expect.stringMatching(new RegExp(`:rds:${testRegion}:\\d+:snapshot:${replacement}$`)),
      serviceId: resource.id,
      kind: "rds",
      engine: "postgres 17",
      createdAt: expect.any(String),
      size: "30 GB",
      restoreCommand: `aws rds restore-db-instance-from-db-snapshot --region ${testRegion} --db-snapshot-identifier ${replacement} --db-instance-identifier ${identifier}-restored`,
    });
    expect(await listFinalSnapshots(aws, "another-environment")).toEqual([]);
    expect(context.logs).toContainEqual({
      level: "info",
      message: `Deleting DB instance ${identifier}; its data is kept in the final snapshot ${identifier}-final-20261127080100`,
    });
  });

  it("reports an instance stopped outside the product as degraded, and starts it on the next deployment", async () => {
    const resource = testResource("database", { name: "reports" });
    const context = contextFor(aws, resource, network);
    const { result } = await applyUntilDone(databaseProvisioner, context);
    const identifier = result.state.dbInstanceArn?.split(":").at(-1);
    await (await aws.rds()).send(new StopDBInstanceCommand({ DBInstanceIdentifier: identifier }));

    expect(await databaseProvisioner.observe(context)).toEqual({
      state: "degraded",
      message: `The DB instance ${identifier} was stopped outside the console (status stopped)`,
    });
    const restarted = await applyUntilDone(databaseProvisioner, { ...context, state: result.state });
    expect(restarted.progress).toEqual(["Starting the DB instance"]);
    expect((await instancesOf(resource.id))[0]?.DBInstanceStatus).toBe("available");
    await destroyUntilDone(databaseProvisioner, context);
  });

  it("surfaces AWS's error code and message when a call fails", async () => {
    const resource = testResource("database", { name: "broken" });
    // The network was deleted outside the product: its subnets are gone.
    const gone = { ...network, privateSubnetIds: "subnet-0deadbeef0000000a,subnet-0deadbeef0000000b" };
    await expect(databaseProvisioner.apply(contextFor(aws, resource, gone))).rejects.toMatchObject({
      name: "InvalidSubnetID.NotFound",
      message: "The subnet ID 'subnet-0deadbeef0000000a' does not exist",
    });
    await destroyUntilDone(databaseProvisioner, contextFor(aws, resource, gone));
    expect(await taggedWithService(aws, resource.id)).toEqual([]);
  });
});
