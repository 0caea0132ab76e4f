import * as z from "zod";
import type { ApplicationConfig } from "./application-config";
import { cloudProviderSchema } from "./cloud-provider-schema";
import { costEstimateSchema, environmentNameSchema } from "./environments";
import type { ServiceType } from "./service-catalogue";
import type { ServiceConfig } from "./service-configs";
import { stageSchema } from "./stage-schema";
import { requiredText } from "./required-text";

/**
 * Fastboot (issue 17, SPEC §2.2 /fastboot/configure): a starter stack becomes a new environment in one click. The
 * stacks are data: each service's name, type, configuration and what it waits for. The platform creates every
 * service as a draft in one transaction, then an engine job launches them in dependency order (decision 038).
 *
 * This module is imported by the configure page, so it imports only types from contract/services.ts (the whole
 * services catalogue would weigh on the page's first visit); contract/fastboot.test.ts checks every configuration
 * against the services' schemas and every reference against the stack.
 */

export const fastbootStackIds = ["web-postgres", "api-redis-queue", "kubernetes-app"] as const;
export const fastbootStackIdSchema = z.enum(fastbootStackIds, { error: "Choose a starter stack" });
export type FastbootStackId = (typeof fastbootStackIds)[number];

/** One service a stack creates: the network first, applications last, each after what it `dependsOn`. */
export type FastbootService = {
  [T in ServiceType]: {
    name: string;
    serviceType: T;
    /** What it is, in the words of the configure page's cards. */
    description: string;
    config: T extends "application" ? ApplicationConfig : Omit<ServiceConfig<T>, "uploadId">;
    /** Names of services of the stack that must be deployed before this one launches. */
    dependsOn: string[];
    /**
     * Where a container host differs (its services' attributes are not AWS's: a queue has a connection string,
     * not an access key): the description and configuration it gets there instead.
     */
    onContainers?: {
      description: string;
      config: T extends "application" ? ApplicationConfig : Omit<ServiceConfig<T>, "uploadId">;
    };
  };
}[ServiceType];

export type FastbootStack = {
  id: FastbootStackId;
  name: string;
  description: string;
  services: FastbootService[];
};

const network: FastbootService = {
  name: "network",
  serviceType: "network",
  description: "Network: a VPC (10.0.0.0/16) across two availability zones with one NAT gateway",
  config: { cidrBlock: "10.0.0.0/16", availabilityZones: 2, natGateways: "single" },
  dependsOn: [],
};

/** An application answering HTTP on port 80, public through the environment's load balancer. */
function webApplication(image: string, envvars: ApplicationConfig["envvars"]): ApplicationConfig {
  return {
    source: { kind: "image", image },
    ports: [{ port: 80, protocol: "HTTP", public: true }],
    envvars,
    cpu: "0.25",
    memoryMb: 512,
    scaling: { mode: "fixed", replicas: 1 },
    healthCheck: {
      path: "/",
      port: 80,
      intervalSeconds: 10,
      timeoutSeconds: 5,
      healthyThreshold: 2,
      unhealthyThreshold: 3,
    },
    domain: { host: "", certificateId: "" },
    preDeployCommand: "",
    sidecars: [],
  };
}

export const fastbootStacks: Record<FastbootStackId, FastbootStack> = {
  "web-postgres": {
    id: "web-postgres",
    name: "Web application with PostgreSQL",
    description: "A public web server (nginx) connected to a managed PostgreSQL database.",
    services: [
      network,
      {
        name: "postgres",
        serviceType: "database",
        description: "Database: PostgreSQL 17 on db.t4g.micro with 20 GB and 7 days of backups",
        config: {
          engine: "postgres",
          version: "17",
          instanceSize: "db.t4g.micro",
          storageGb: 20,
          multiAz: false,
          username: "app",
          backupRetentionDays: 7,
        },
        dependsOn: ["network"],
      },
      {
        name: "web",
        serviceType: "application",
        description:
          "Application: nginx:1.27 on port 80, public, with DATABASE_URL set to the database's connection string",
        config: webApplication("nginx:1.27", [
          { kind: "attribute", name: "DATABASE_URL", service: "postgres", attribute: "connectionString" },
        ]),
        dependsOn: ["network", "postgres"],
      },
    ],
  },
  "api-redis-queue": {
    id: "api-redis-queue",
    name: "API with Redis and a queue",
    description: "A public HTTP API with a Redis cache and a message queue for background work.",
    services: [
      network,
      {
        name: "redis",
        serviceType: "cache",
        description: "Cache: Redis 7.1 on one cache.t4g.micro node, encrypted in transit",
        config: {
          engine: "redis",
          version: "7.1",
          nodeSize: "cache.t4g.micro",
          nodes: 1,
          encryptionInTransit: true,
        },
        dependsOn: ["network"],
      },
      {
        name: "jobs",
        serviceType: "queue",
        description: "Queue: a standard queue with a dead-letter queue after 5 receives",
        config: {
          queueType: "standard",
          visibilityTimeoutSeconds: 30,
          messageRetentionDays: 4,
          deadLetterQueue: true,
          maxReceiveCount: 5,
        },
        dependsOn: ["network"],
      },
      {
        name: "api",
        serviceType: "application",
        description:
          "Application: traefik/whoami on port 80, public, with REDIS_URL and the queue's access key as variables",
        config: webApplication("traefik/whoami:v1.10", [
          { kind: "attribute", name: "REDIS_URL", service: "redis", attribute: "connectionString" },
          { kind: "attribute", name: "QUEUE_ACCESS_KEY_ID", service: "jobs", attribute: "accessKeyId" },
          {
            kind: "attribute",
            name: "QUEUE_SECRET_ACCESS_KEY",
            service: "jobs",
            attribute: "secretAccessKey",
          },
        ]),
        dependsOn: ["network", "redis", "jobs"],
        onContainers: {
          description:
            "Application: traefik/whoami on port 80, public, with REDIS_URL and the queue's QUEUE_URL as variables",
          config: webApplication("traefik/whoami:v1.10", [
            { kind: "attribute", name: "REDIS_URL", service: "redis", attribute: "connectionString" },
            { kind: "attribute", name: "QUEUE_URL", service: "jobs", attribute: "connectionString" },
          ]),
        },
      },
    ],
  },
  "kubernetes-app": {
    id: "kubernetes-app",
    name: "Kubernetes cluster with an ingress and a sample application",
    description: "A managed Kubernetes cluster and a sample application reached through the ingress.",
    services: [
      network,
      {
        name: "cluster",
        serviceType: "kubernetes",
        description: "Kubernetes cluster: version 1.33 with 2 to 3 t3.medium nodes",
        config: { version: "1.33", nodeInstanceType: "t3.medium", minNodes: 2, maxNodes: 3 },
        dependsOn: ["network"],
      },
      {
        name: "hello",
        serviceType: "application",
        description:
          "Application: nginxdemos/hello on port 80, behind the ingress (the environment's internet-facing load balancer)",
        config: webApplication("nginxdemos/hello:0.4", []),
        dependsOn: ["network", "cluster"],
      },
    ],
  },
};

// ---------------------------------------------------------------------------------------------------------------
// Requests and answers

/**
 * The configure form and POST fastboot: the stack, the new environment's name, the cloud account (none: the
 * simulated cloud; the environment's provider is the account's, AWS without one) and the region of that provider.
 */
export const fastbootRequestSchema = z.object({
  stack: fastbootStackIdSchema,
  name: environmentNameSchema,
  cloudConnectionId: z.uuid({ error: "Choose a cloud account from the list." }).optional(),
  region: requiredText("Region", { max: 40 }),
});
export type FastbootRequest = z.infer<typeof fastbootRequestSchema>;

/** GET fastboot/stacks?cloudProvider=&region=: each stack with what it creates and its monthly estimate there. */
export const fastbootStackQuerySchema = z.object({
  cloudProvider: cloudProviderSchema.default("AWS"),
  region: requiredText("Region", { max: 40 }).default("us-east-1"),
});
export const fastbootStackListSchema = z.object({
  cloudProvider: cloudProviderSchema,
  region: z.string(),
  stacks: z.array(
    z.object({
      id: fastbootStackIdSchema,
      name: z.string(),
      description: z.string(),
      creates: z.array(z.object({ name: z.string(), serviceType: z.string(), description: z.string() })),
      estimate: costEstimateSchema,
    }),
  ),
});
export type FastbootStackList = z.infer<typeof fastbootStackListSchema>;

/**
 * Where a fastboot stands: `deploying` while the engine launches or deploys its services; `failed` when a service
 * failed (or was canceled) and nothing else moves: retry it and the launch goes on; `completed` once every service
 * is deployed.
 */
export const fastbootStatuses = ["deploying", "failed", "completed"] as const;
export type FastbootStatus = (typeof fastbootStatuses)[number];

export const fastbootResourceSchema = z.object({
  id: z.string(),
  name: z.string(),
  serviceType: z.string(),
  description: z.string(),
  stage: stageSchema,
  /** Why its deployment failed. */
  message: z.string().nullable(),
  endpoint: z.string().nullable(),
  dependsOn: z.array(z.string()),
});
export type FastbootResource = z.infer<typeof fastbootResourceSchema>;

export const fastbootSchema = z.object({
  id: z.string(),
  stack: fastbootStackIdSchema,
  stackName: z.string(),
  environment: z.object({ id: z.string(), name: z.string() }),
  status: z.enum(fastbootStatuses),
  resources: z.array(fastbootResourceSchema),
  /** The stack's application once deployed: its URL (endpoint) and id for its overview. */
  application: z.object({ id: z.string(), name: z.string(), url: z.string().nullable() }).nullable(),
  createdAt: z.string(),
});
export type Fastboot = z.infer<typeof fastbootSchema>;
export const fastbootResponseSchema = z.object({ fastboot: fastbootSchema });

const organization = (tenantId: string) => `/v2/organizations/${encodeURIComponent(tenantId)}`;

/**
 * - GET stacks → fastbootStackListSchema (400 for a region outside the provider's catalogue).
 * - POST create (fastbootRequestSchema) → 201 fastbootResponseSchema; 400 with field errors (`name` taken,
 *   `cloudConnectionId` not an account of the organization, `region` not of the account's provider); 403 without
 *   environments.create, services.configure and services.deploy on the organization.
 * - GET one → fastbootResponseSchema; 404 for an unknown id or another organization's.
 * A failed service is retried with the services' POST retry; the launch then goes on by itself.
 */
export const fastbootPaths = {
  create: (tenantId: string) => `${organization(tenantId)}/fastboot`,
  stacks: (tenantId: string, query: { cloudProvider: string; region: string }) =>
    `${organization(tenantId)}/fastboot/stacks?${new URLSearchParams(query)}`,
  one: (tenantId: string, id: string) => `${organization(tenantId)}/fastboot/${encodeURIComponent(id)}`,
};

export const fastbootErrorMessages = {
  notFound: "This fastboot does not exist.",
  /** Creating services and launching them are part of a fastboot. */
  needsDeploy:
    "Fastboot creates and launches services: your role must allow services.configure and services.deploy.",
} as const;
