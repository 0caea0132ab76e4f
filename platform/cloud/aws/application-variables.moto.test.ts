import { DescribeTaskDefinitionCommand } from "@aws-sdk/client-ecs";
import {
  DescribeSecretCommand,
  GetResourcePolicyCommand,
  GetSecretValueCommand,
  ListSecretsCommand,
} from "@aws-sdk/client-secrets-manager";
import { beforeAll, expect, it } from "vitest";
import type { DriverResource, ResolvedVariable } from "../driver";
import { applicationProvisioner } from "./application";
import {
  applyUntilDone,
  contextFor,
  createTestNetwork,
  destroyUntilDone,
  testRegion,
  testResource,
} from "../../testing/aws-provisioning";
import { setUpMoto } from "../../testing/aws";

/*
 * An application's resolved variables in its task definition (decision 074): plain ones in `environment`, secret
 * ones (a secret environment variable, a connection string) through `secrets`, from a Secrets Manager secret of
 * the application's own, never as text in the task definition.
 */

const moto = setUpMoto({
  region: testRegion,
  maxAttempts: 1,
  settings: { MOTO_ECS_SERVICE_RUNNING: "10", MOTO_IAM_LOAD_MANAGED_POLICIES: "true" },
});
const { aws } = moto;
let network: Record<string, string>;
beforeAll(async () => {
  network = await createTestNetwork(moto);
}, 120_000);

const API_KEY = "s3cret-api-key-4c1d";
const DATABASE_URL = "postgres://shop:pa55word-9e@orders-db.abc.rds.amazonaws.com:5432/orders";

const web: DriverResource = testResource("application", {
  name: "web",
  config: { source: { kind: "image", image: "ghcr.io/acme/web:1.4.2" } },
  settings: {
    networking: { port: 8080, public: true, customDomain: "" },
    envvars: [
      { name: "GREETING", value: "${GREETING_TEXT}" },
      { name: "API_KEY", value: "${API_KEY}" },
      { name: "DATABASE_URL", value: "${{orders-db.connectionString}}" },
      { name: "MODE", value: "plain" },
    ],
  },
});

/** The variables as the platform resolves them (platform/applications/variables.ts). */
const resolved = (apiKey: string): ResolvedVariable[] => [
  {
    name: "GREETING",
    value: "hello",
    secret: false,
    reference: { kind: "variable", variable: "GREETING_TEXT" },
  },
  { name: "API_KEY", value: apiKey, secret: true, reference: { kind: "variable", variable: "API_KEY" } },
  {
    name: "DATABASE_URL",
    value: DATABASE_URL,
    secret: true,
    reference: { kind: "attribute", service: "orders-db", attribute: "connectionString" },
  },
  { name: "MODE", value: "plain", secret: false },
];

async function taskDefinitionOf(arn: string | undefined) {
  const ecs = await aws.ecs();
  return (await ecs.send(new DescribeTaskDefinitionCommand({ taskDefinition: arn, include: ["TAGS"] })))
    .taskDefinition;
}

it("puts plain values in the task definition's environment and secret ones in a tagged Secrets Manager secret it references, rolls out a changed secret, deletes the secret once no variable is secret and with the application", async () => {
  const context = contextFor(aws, web, network, { environmentId: "env-variables" });
  const deployed = await applyUntilDone(applicationProvisioner, {
    ...context,
    variables: async () => ({ variables: resolved(API_KEY) }),
  });
  const { state } = deployed.result;
  const definition = await taskDefinitionOf(state.taskDefinitionArn);
  const [container] = definition?.containerDefinitions ?? [];
  expect(container?.environment).toEqual([
    { name: "GREETING", value: "hello" },
    { name: "MODE", value: "plain" },
  ]);
  // Never as text in the task definition: each secret is read from the application's secret at the task's start.
  expect(JSON.stringify(definition)).not.toContain(API_KEY);
  expect(JSON.stringify(definition)).not.toContain(DATABASE_URL);
  const secretArn = state.variablesSecretArn ?? "";
  expect(secretArn).toMatch(/^arn:aws:secretsmanager:/);
  const secretsManager = await aws.secretsManager();
  const stored = await secretsManager.send(new GetSecretValueCommand({ SecretId: secretArn }));
  expect(JSON.parse(stored.SecretString ?? "")).toEqual({ API_KEY, DATABASE_URL });
  expect(container?.secrets).toEqual([
    { name: "API_KEY", valueFrom: `${secretArn}:API_KEY::${stored.VersionId}` },
    { name: "DATABASE_URL", valueFrom: `${secretArn}:DATABASE_URL::${stored.VersionId}` },
  ]);
  const described = await secretsManager.send(new DescribeSecretCommand({ SecretId: secretArn }));
  expect(described.Tags).toEqual(expect.arrayContaining([{ Key: "cloud-console:service", Value: web.id }]));
  // The tasks' execution role may read that secret (its resource policy says so; the role gets no policy of its own).
  const policy = await secretsManager.send(new GetResourcePolicyCommand({ SecretId: secretArn }));
  expect(JSON.parse(policy.ResourcePolicy ?? "")).toEqual({
    Version: "2012-10-17",
    Statement: [
      {
        Effect: "Allow",
        Principal: { AWS: state.executionRoleArn },
        Action: "secretsmanager:GetSecretValue",
        Resource: "*",
      },
    ],
  });
  // The logs name what was resolved, never a value.
  const logs = context.logs.map((line) => line.message);
  expect(logs).toEqual(
    expect.arrayContaining([
      "Resolved GREETING from the environment variable GREETING_TEXT",
      "Resolved API_KEY from the environment variable API_KEY (secret)",
      "Resolved DATABASE_URL from orders-db's connectionString (secret)",
    ]),
  );
  expect(logs.join("\n")).not.toContain(API_KEY);

  // Deployed again unchanged: the same task definition and secret version. A changed secret: a new version,
  // and a new revision that names it, so the tasks roll out with it.
  const again = await applyUntilDone(applicationProvisioner, {
    ...context,
    state,
    variables: async () => ({ variables: resolved(API_KEY) }),
  });
  expect(again.result.state.taskDefinitionArn).toBe(state.taskDefinitionArn);
  const changed = await applyUntilDone(applicationProvisioner, {
    ...context,
    state: again.result.state,
    variables: async () => ({ variables: resolved("rotated-key-77") }),
  });
  expect(changed.progress).toContain("Rolling out the change");
  expect(changed.result.state.taskDefinitionArn).not.toBe(state.taskDefinitionArn);
  const rotated = await secretsManager.send(new GetSecretValueCommand({ SecretId: secretArn }));
  expect(JSON.parse(rotated.SecretString ?? "").API_KEY).toBe("rotated-key-77");
  expect(
    (await taskDefinitionOf(changed.result.state.taskDefinitionArn))?.containerDefinitions?.[0]?.secrets,
  ).toEqual([
    { name: "API_KEY", valueFrom: `${secretArn}:API_KEY::${rotated.VersionId}` },
    { name: "DATABASE_URL", valueFrom: `${secretArn}:DATABASE_URL::${rotated.VersionId}` },
  ]);

  // A referenced service that has not answered yet: the step waits, creating nothing more.
  const waiting = await applicationProvisioner.apply({
    ...context,
    state: changed.result.state,
    variables: async () => ({ waitingFor: "orders-db's connectionString (DATABASE_URL)" }),
  });
  expect(waiting).toMatchObject({
    done: false,
    progress: "Waiting for orders-db's connectionString (DATABASE_URL)",
  });

  // No secret variable left (API_KEY and DATABASE_URL removed): the secret goes, the revision names none.
  const plainOnly = await applyUntilDone(applicationProvisioner, {
    ...context,
    state: changed.result.state,
    variables: async () => ({ variables: resolved(API_KEY).filter((variable) => !variable.secret) }),
  });
  const [plainContainer] =
    (await taskDefinitionOf(plainOnly.result.state.taskDefinitionArn))?.containerDefinitions ?? [];
  expect(plainContainer?.secrets ?? []).toEqual([]);
  expect(plainContainer?.environment?.map((variable) => variable.name)).toEqual(["GREETING", "MODE"]);
  expect(plainOnly.result.state.variablesSecretArn).toBeUndefined();
  await expect(secretsManager.send(new DescribeSecretCommand({ SecretId: secretArn }))).rejects.toThrow();

  await destroyUntilDone(applicationProvisioner, { ...context, state: plainOnly.result.state });
  const left = await secretsManager.send(
    new ListSecretsCommand({ Filters: [{ Key: "tag-value", Values: [web.id] }] }),
  );
  expect(left.SecretList ?? []).toEqual([]);
});
