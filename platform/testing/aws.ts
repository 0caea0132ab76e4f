import { randomUUID } from "node:crypto";
import {
  CreateQueueCommand,
  DeleteQueueCommand,
  GetQueueAttributesCommand,
  SetQueueAttributesCommand,
} from "@aws-sdk/client-sqs";
import { afterAll, beforeAll } from "vitest";
import { type ServiceType } from "#contract/service-catalogue";
import { defaultServiceSettings } from "#contract/services";
import { defaultServiceConfigs } from "#contract/service-configs";
import { motoCredentials, startMotoServer, type MotoServer } from "../../tests/setup/moto-server";
import { createAwsClients, type AwsClients } from "../cloud/aws/clients";
import type { DriverResource, NewLogLine } from "../cloud/driver";
import {
  TAG_ENVIRONMENT,
  TAG_ORGANIZATION,
  TAG_SERVICE,
  type ApplyResult,
  type ProvisionContext,
  type Provisioner,
} from "../cloud/aws/provisioner";

/** The engine's side of a provisioner, for tests against moto_server: contexts, and calling until done. */

export const testRegion = "eu-west-1";

export function awsClientsFor(
  moto: Pick<MotoServer, "endpoint">,
  region = testRegion,
  maxAttempts = 2,
): AwsClients {
  return createAwsClients({ region, credentials: motoCredentials, endpoint: moto.endpoint, maxAttempts });
}

export type MotoOptions = {
  /** moto's own switches (MOTO_IAM_LOAD_MANAGED_POLICIES, MOTO_ECS_SERVICE_RUNNING, ...) for this server only. */
  settings?: Record<string, string>;
  /** The region of `aws`. */
  region?: string;
  /** Attempts per call of `aws`. */
  maxAttempts?: number;
  /**
   * moto loads every service's backend on the first Resource Groups Tagging API call (several seconds): with
   * `warmUp` that happens in the hook, rather than inside the first test.
   */
  warmUp?: boolean;
};

/** The moto_server of a test file (or describe block) and clients of its region, for hooks and tests. */
export type Moto = { readonly server: MotoServer; readonly endpoint: string; readonly aws: AwsClients };

/**
 * Starts a moto_server of its own for the calling file (or describe block) in beforeAll and stops it in afterAll,
 * after the hooks registered later (vitest runs after-hooks as a stack).
 */
export function setUpMoto({
  settings = {},
  region = testRegion,
  maxAttempts,
  warmUp = false,
}: MotoOptions = {}): Moto {
  let server: MotoServer | undefined;
  let aws: AwsClients | undefined;
  beforeAll(async () => {
    server = await startMotoServer({ environment: settings });
    aws = awsClientsFor(server, region, maxAttempts);
    if (warmUp) await taggedResources(aws, "warm-up");
  });
  afterAll(async () => {
    aws?.destroy();
    await server?.stop();
  });
  const started = <T>(value: T | undefined): T => {
    if (value === undefined)
      throw new Error("moto_server starts in beforeAll: use its handle in hooks and tests");
    return value;
  };
  return {
    get server() {
      return started(server);
    },
    get endpoint() {
      return started(server).endpoint;
    },
    // The clients exist once the server does: until then `aws` stands for them, so that a file can name it at once.
    aws: new Proxy({} as AwsClients, {
      get: (_, key) => Reflect.get(started(aws), key),
      has: (_, key) => Reflect.has(started(aws), key),
    }),
  };
}

/** A service of `serviceType` with the type's default configuration over which `config` is laid. */
export function resourceOf(
  serviceType: ServiceType,
  config: Record<string, unknown> = {},
  overrides: Partial<DriverResource> = {},
): DriverResource {
  return {
    id: randomUUID(),
    name: `${serviceType}-${randomUUID().slice(0, 6)}`,
    serviceType,
    config: { ...defaultServiceConfigs[serviceType], ...config },
    settings: defaultServiceSettings,
    environmentName: "staging",
    cloudProvider: "AWS",
    region: testRegion,
    ...overrides,
  };
}

export type TestService = {
  resource: DriverResource;
  state: Record<string, string>;
  logs: Pick<NewLogLine, "level" | "message">[];
  context: (overrides?: Partial<ProvisionContext>) => ProvisionContext;
};

/** A service as the engine holds it: its resource, the state saved after each call, the log it wrote. */
export function testService(
  aws: AwsClients,
  resource: DriverResource,
  extra: Partial<ProvisionContext> = {},
): TestService {
  const service: TestService = {
    resource,
    state: {},
    logs: [],
    context: (overrides = {}) => ({
      resource: service.resource,
      tags: {
        [TAG_ORGANIZATION]: "org-test",
        [TAG_ENVIRONMENT]: "env-test",
        [TAG_SERVICE]: service.resource.id,
        Name: service.resource.name,
      },
      state: service.state,
      network: null,
      aws,
      log: (level, message) => service.logs.push({ level, message }),
      now: new Date(),
      ...extra,
      ...overrides,
    }),
  };
  return service;
}

const MAX_CALLS = 100;

/** Calls `apply` as the engine does (its waits skipped), saving the state after each call, until done. */
export async function applyUntilDone(
  provisioner: Provisioner,
  service: TestService,
): Promise<Extract<ApplyResult, { done: true }> & { progress: string[] }> {
  const progress: string[] = [];
  for (let call = 0; call < MAX_CALLS; call++) {
    const result = await provisioner.apply(service.context());
    service.state = result.state;
    if (result.done) return { ...result, progress };
    progress.push(result.progress);
  }
  throw new Error(`apply was not done after ${MAX_CALLS} calls: ${progress.slice(-3).join(" / ")}`);
}

export async function destroyUntilDone(provisioner: Provisioner, service: TestService): Promise<string[]> {
  const progress: string[] = [];
  for (let call = 0; call < MAX_CALLS; call++) {
    const result = await provisioner.destroy(service.context());
    if (result.done) {
      service.state = {};
      return progress;
    }
    service.state = result.state;
    progress.push(result.progress);
  }
  throw new Error(`destroy was not done after ${MAX_CALLS} calls: ${progress.slice(-3).join(" / ")}`);
}

/**
 * The ARNs the Resource Groups Tagging API finds tagged with the service's id. NAT gateways are left out once
 * deleted: AWS (and moto) keep showing a deleted one, tags and all, for a while.
 */
export async function taggedResources(aws: AwsClients, serviceId: string): Promise<string[]> {
  const { GetResourcesCommand } = await import("@aws-sdk/client-resource-groups-tagging-api");
  const { DescribeNatGatewaysCommand } = await import("@aws-sdk/client-ec2");
  const answer = await (
    await aws.resourceGroupsTagging()
  ).send(new GetResourcesCommand({ TagFilters: [{ Key: TAG_SERVICE, Values: [serviceId] }] }));
  const arns = (answer.ResourceTagMappingList ?? []).map((mapping) => mapping.ResourceARN ?? "");
  const natGatewayIds = arns
    .filter((arn) => arn.includes(":natgateway/"))
    .map((arn) => arn.split("/")[1] ?? "");
  if (natGatewayIds.length === 0) return arns;
  const { NatGateways = [] } = await (
    await aws.ec2()
  ).send(new DescribeNatGatewaysCommand({ NatGatewayIds: natGatewayIds }));
  const deleted = new Set(
    NatGateways.filter((gateway) => gateway.State === "deleted").map((gateway) => gateway.NatGatewayId),
  );
  return arns.filter((arn) => !deleted.has(arn.split("/")[1]));
}

/**
 * A small real provisioner for the engine's tests against moto_server: an SQS queue named after the service's Name
 * tag. Creating a queue is idempotent by name in SQS, so a step repeated after a crash gets the queue an earlier
 * attempt created. The first step creates it and waits `waitMs`; the next converges its attributes and is done
 * with the queue's URL as endpoint. `afterCreate` lets a test stop a step between the cloud's answer and its
 * record, as a platform that dies there would.
 */
export function testQueueProvisioner({
  waitMs = 1000,
  afterCreate,
}: { waitMs?: number; afterCreate?: () => Promise<void> } = {}): Provisioner {
  const attributesOf = (config: Record<string, unknown>) => ({
    VisibilityTimeout: String(config.visibilityTimeoutSeconds ?? 30),
    MessageRetentionPeriod: String(Number(config.messageRetentionDays ?? 4) * 86_400),
  });
  return {
    secretAttributeNames: () => [],
    async apply({ resource, tags, state, aws, log }) {
      const sqs = await aws.sqs();
      const name = `${tags.Name}${resource.config.queueType === "fifo" ? ".fifo" : ""}`;
      if (!state.queueUrl) {
        const { QueueUrl } = await sqs.send(
          new CreateQueueCommand({
            QueueName: name,
            Attributes: {
              ...attributesOf(resource.config),
              ...(resource.config.queueType === "fifo" ? { FifoQueue: "true" } : {}),
            },
            tags,
          }),
        );
        if (!QueueUrl) throw new Error("SQS answered CreateQueue without a queue URL");
        log("info", `Created SQS queue ${name}`);
        await afterCreate?.();
        return {
          done: false,
          state: { ...state, queueUrl: QueueUrl },
          waitMs,
          progress: "Creating the queue",
        };
      }
      await sqs.send(
        new SetQueueAttributesCommand({
          QueueUrl: state.queueUrl,
          Attributes: attributesOf(resource.config),
        }),
      );
      const { Attributes } = await sqs.send(
        new GetQueueAttributesCommand({ QueueUrl: state.queueUrl, AttributeNames: ["QueueArn"] }),
      );
      log("info", `Queue ${name} is available`);
      return {
        done: true,
        state: { ...state, queueArn: Attributes?.QueueArn ?? "" },
        endpoint: state.queueUrl,
        secrets: {},
        outputs: { queueArn: Attributes?.QueueArn ?? "" },
      };
    },
    async destroy({ state, aws, log }) {
      if (state.queueUrl) {
        const sqs = await aws.sqs();
        try {
          await sqs.send(new DeleteQueueCommand({ QueueUrl: state.queueUrl }));
          log("info", `Deleted SQS queue ${state.queueUrl}`);
        } catch (error) {
          const name = error instanceof Error ? error.name : "";
          if (name !== "QueueDoesNotExist" && name !== "AWS.SimpleQueueService.NonExistentQueue") throw error;
        }
      }
      return { done: true };
    },
    plan(before, after) {
      const paths = [...new Set([...Object.keys(before.config), ...Object.keys(after.config)])]
        .filter((key) => JSON.stringify(before.config[key]) !== JSON.stringify(after.config[key]))
        .map((key) => `config.${key}`);
      return {
        inPlace: paths.filter((path) => path !== "config.queueType"),
        replace: paths.filter((path) => path === "config.queueType"),
      };
    },
    observe: async () => ({ state: "ok" }),
  };
}
