import { randomUUID } from "node:crypto";
import { CreateDBInstanceCommand, DeleteDBInstanceCommand } from "@aws-sdk/client-rds";
import { afterAll, beforeAll, expect, it } from "vitest";
import { snapshotPaths, snapshotsResponseSchema } from "#contract/snapshots";
import { MOTO_ACCOUNT_ID } from "../../tests/setup/moto-server";
import { setUpMoto } from "../testing/aws";
import { defaultTerraformConfig } from "../lib/config";
import { TAG_ENVIRONMENT, TAG_ORGANIZATION, TAG_SERVICE } from "../cloud/aws/provisioner";
import { openTestApi, type TestApi, type TestMember } from "../testing/http-harness";

/*
 * The final snapshots of an environment in an AWS connection (moto_server): what the provisioners leave when they
 * delete a database (a snapshot with the service's tags) is listed on the environment, after the service is gone.
 */

const region = "us-west-2";
// The Tagging API's first call loads every moto backend: in the hook, not the test.
const moto = setUpMoto({ region, warmUp: true });
let api: TestApi;
beforeAll(async () => {
  api = await openTestApi({ terraform: { ...defaultTerraformConfig, awsEndpoint: moto.endpoint } });
});
afterAll(() => api?.close());

let member: TestMember;
let tenantId: string;
let environmentId: string;
beforeAll(async () => {
  member = await api.createMember({ role: "admin" });
  tenantId = member.organization.tenantId;
  const environment = await api.createAwsEnvironment(member, region);
  environmentId = environment.id;
});

it("lists the final snapshot of a deleted database on its environment, with how to restore it", async () => {
  const serviceId = randomUUID();
  const identifier = `orders-${serviceId.slice(0, 8)}`;
  const rds = await moto.aws.rds();
  // A database as the provisioner creates and deletes it (platform/cloud/aws/database.ts).
  await rds.send(
    new CreateDBInstanceCommand({
      DBInstanceIdentifier: identifier,
      Engine: "postgres",
      EngineVersion: "17",
      DBInstanceClass: "db.t4g.micro",
      AllocatedStorage: 30,
      MasterUsername: "admin",
      MasterUserPassword: "a-long-enough-password",
      CopyTagsToSnapshot: true,
      Tags: [
        { Key: TAG_ORGANIZATION, Value: member.organization.organizationId },
        { Key: TAG_ENVIRONMENT, Value: environmentId },
        { Key: TAG_SERVICE, Value: serviceId },
      ],
    }),
  );
  const name = `${identifier}-final-20261127073005`;
  await rds.send(
    new DeleteDBInstanceCommand({ DBInstanceIdentifier: identifier, FinalDBSnapshotIdentifier: name }),
  );

  const response = await api.call("GET", snapshotPaths.list(tenantId, environmentId), {
    token: member.user.token,
  });
  expect(response.status).toBe(200);
  expect(snapshotsResponseSchema.parse(await response.json()).snapshots).toEqual([
    {
      name,
      arn: `arn:aws:rds:${region}:${MOTO_ACCOUNT_ID}:snapshot:${name}`,
      serviceId,
      kind: "rds",
      engine: "postgres 17",
      createdAt: expect.any(String),
      size: "30 GB",
      restoreCommand: `aws rds restore-db-instance-from-db-snapshot --region ${region} --db-snapshot-identifier ${name} --db-instance-identifier ${identifier}-restored`,
    },
  ]);

  // An environment outside AWS has none.
  const simulated = await api.createEnvironment(tenantId);
  const none = await api.call("GET", snapshotPaths.list(tenantId, simulated.id), {
    token: member.user.token,
  });
  expect(snapshotsResponseSchema.parse(await none.json())).toEqual({ snapshots: [] });
}, 60_000);
