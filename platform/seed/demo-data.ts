import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import type { FeatureFlagName } from "#contract/feature-flags";
import type { RoleName } from "#contract/permissions";
import { plans } from "#contract/users";
import { defaultApplicationConfig } from "#contract/application-config";
import { applicationSettingsOf } from "../services/application-config";
import { type ServiceType } from "#contract/service-catalogue";
import { defaultServiceSettings, type ServiceSettings } from "#contract/services";
import { defaultServiceConfigs, type ServiceConfig } from "#contract/service-configs";
import { backfillDemoUsage } from "./demo-usage";
import { createDeploys } from "../deployments/deploys";
import type { CloudDriver } from "../cloud/driver";
import { createSimulatedDriver } from "../cloud/simulated/driver";
import { storedValue } from "../environments/variables";
import { hashPassword } from "../identity/passwords";
import { addMember } from "../team/members";
import type { SecretCipher } from "../lib/cipher";
import { createService } from "../services/services";
import type { Database } from "../db/index";
import { environments, environmentVariables, featureFlags, organizations, users } from "../db/schema";

export const DEMO_PASSWORD = "password";

const demoOrganizations: (typeof organizations.$inferInsert)[] = [
  // On Enterprise: its four environments are more than Free allows (issue 25), and the end-to-end suite adds many.
  { id: "org_acme", name: "acme-corp", displayName: "Acme Corp", approved: true, plan: plans.ENTERPRISE.id },
  { id: "org_globex", name: "globex", displayName: "Globex", approved: true },
  { id: "org_initech", name: "initech", displayName: "Initech", approved: false },
];

const demoUsers: { id: string; email: string; name: string; memberships: [string, RoleName][] }[] = [
  {
    id: "user_ada",
    email: "ada@example.com",
    name: "Ada Lovelace",
    memberships: [
      ["org_acme", "admin"],
      ["org_globex", "developer"],
    ],
  },
  { id: "user_bob", email: "bob@example.com", name: "Bob Stone", memberships: [["org_acme", "read-only"]] },
  {
    id: "user_frank",
    email: "frank@example.com",
    name: "Frank Moss",
    memberships: [["org_acme", "read-only"]],
  },
  {
    id: "user_grace",
    email: "grace@example.com",
    name: "Grace Hill",
    memberships: [["org_acme", "read-only"]],
  },
  {
    id: "user_carol",
    email: "carol@example.com",
    name: "Carol Baker",
    memberships: [["org_initech", "admin"]],
  },
  { id: "user_dave", email: "dave@example.com", name: "Dave Young", memberships: [] },
];

/** Acme Corp's environments, in AWS us-east-1, each with a few variables and one secret. */
const demoEnvironments: { name: string; variables: { name: string; value: string; secret: boolean }[] }[] = [
  {
    name: "production",
    variables: [
      { name: "NODE_ENV", value: "production", secret: false },
      { name: "LOG_LEVEL", value: "info", secret: false },
      { name: "DB_PASSWORD", value: "acme-production-db-password", secret: true },
    ],
  },
  {
    name: "staging",
    variables: [
      { name: "NODE_ENV", value: "staging", secret: false },
      { name: "LOG_LEVEL", value: "debug", secret: false },
      { name: "DB_PASSWORD", value: "acme-staging-db-password", secret: true },
    ],
  },
];

/** Acme Corp's deployed services in production, oldest first; the network first, as the others need it. */
const demoServices: {
  serviceType: ServiceType;
  name: string;
  config: Record<string, unknown>;
  settings?: Partial<ServiceSettings>;
}[] = [
  { serviceType: "network", name: "main-vpc", config: defaultServiceConfigs.network },
  // The cluster the cost pages allocate to namespaces and workloads (issue 16).
  { serviceType: "kubernetes", name: "main-cluster", config: defaultServiceConfigs.kubernetes },
  {
    serviceType: "database",
    name: "orders-db",
    config: {
      ...defaultServiceConfigs.database,
      instanceSize: "db.t4g.medium",
      storageGb: 100,
      multiAz: true,
      username: "orders",
    } satisfies ServiceConfig<"database">,
  },
  { serviceType: "cache", name: "session-cache", config: defaultServiceConfigs.cache },
  { serviceType: "queue", name: "jobs-queue", config: defaultServiceConfigs.queue },
  {
    serviceType: "application",
    name: "web",
    config: {
      ...defaultApplicationConfig,
      source: { kind: "image", image: "ghcr.io/acme/web:1.4.2" },
      ports: [{ port: 3000, protocol: "HTTP", public: true }],
      envvars: [
        { kind: "variable", name: "NODE_ENV", variable: "NODE_ENV" },
        { kind: "value", name: "API_URL", value: "http://api:8080" },
      ],
      scaling: { mode: "autoscaling", minReplicas: 1, maxReplicas: 3, targetCpuPercent: 70 },
      healthCheck: { ...defaultApplicationConfig.healthCheck, path: "/healthz", port: 3000 },
    } satisfies ServiceConfig<"application">,
  },
  {
    serviceType: "application",
    name: "api",
    config: {
      ...defaultApplicationConfig,
      source: { kind: "image", image: "ghcr.io/acme/api:2.0.1" },
      ports: [{ port: 8080, protocol: "HTTP", public: false }],
      envvars: [
        { kind: "variable", name: "LOG_LEVEL", variable: "LOG_LEVEL" },
        { kind: "variable", name: "DATABASE_PASSWORD", variable: "DB_PASSWORD" },
        { kind: "attribute", name: "DATABASE_URL", service: "orders-db", attribute: "connectionString" },
      ],
      scaling: { mode: "autoscaling", minReplicas: 2, maxReplicas: 6, targetCpuPercent: 65 },
      healthCheck: { ...defaultApplicationConfig.healthCheck, path: "/healthz", port: 8080 },
    } satisfies ServiceConfig<"application">,
  },
];

const demoFeatureFlags: FeatureFlagName[] = ["notification-connections", "version-control-connection"];

const SEEDED_SERVICES_AGE_MS = 3 * 24 * 3600 * 1000;

/** Seeds the demo organizations and accounts once: a database that already has users is left alone. */
export async function seedDemoData(
  db: Database,
  { secrets, driver = createSimulatedDriver() }: { secrets: SecretCipher; driver?: CloudDriver },
): Promise<boolean> {
  const existing = await db.select({ id: users.id }).from(users).limit(1);
  if (existing.length) return false;
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  await db.transaction(async (tx) => {
    await tx.insert(organizations).values(demoOrganizations);
    await tx
      .insert(users)
      .values(demoUsers.map(({ id, email, name }) => ({ id, email, name, passwordHash, picture: null })));
    for (const user of demoUsers) {
      for (const [organizationId, role] of user.memberships) {
        await addMember(tx, { userId: user.id, organizationId, grants: [{ role }] });
      }
    }
    const [acme] = await tx.select().from(organizations).where(eq(organizations.id, "org_acme"));
    if (!acme) throw new Error("Acme Corp was not seeded");
    // Acme shows the connections behind flags: GitHub and Slack or Teams notifications (issue 13).
    await tx
      .insert(featureFlags)
      .values(demoFeatureFlags.map((name) => ({ tenantId: acme.tenantId, name, enabled: true })));
    for (const { name, variables } of demoEnvironments) {
      const [environment] = await tx
        .insert(environments)
        .values({ tenantId: acme.tenantId, name, cloudProvider: "AWS", region: "us-east-1" })
        .returning();
      if (!environment) throw new Error(`${name} was not seeded`);
      await tx.insert(environmentVariables).values(
        variables.map(({ name: variableName, value, secret }) => {
          const id = randomUUID();
          return {
            id,
            environmentId: environment.id,
            name: variableName,
            secret,
            ...storedValue(secrets, { environmentId: environment.id, variableId: id, value, secret }),
          };
        }),
      );
      if (name !== "production") continue;
      // Deployed as the engine would have deployed them a few days ago: history, logs and sealed secrets included.
      const deploys = createDeploys({ driver, secrets, settings: { timeScale: 1, failureInjection: false } });
      let at = Date.now() - SEEDED_SERVICES_AGE_MS;
      for (const service of demoServices) {
        const created = await createService(
          tx,
          {
            environment,
            serviceType: service.serviceType,
            name: service.name,
            config: service.config,
            // An application's settings are its configuration's (platform/applications/config.ts).
            settings:
              service.serviceType === "application"
                ? applicationSettingsOf(
                    service.config as ServiceConfig<"application">,
                    defaultServiceSettings,
                  )
                : { ...defaultServiceSettings, ...service.settings },
            launch: true,
            actor: "Ada Lovelace",
          },
          new Date(at),
        );
        if (!created) throw new Error(`${service.name} was not seeded`);
        await deploys.deployAtOnce(
          tx,
          {
            resource: created.resource,
            environment,
            historyId: created.history.id,
            action: "Create",
            deployNumber: 1,
          },
          new Date(at),
        );
        at += 15 * 60 * 1000;
      }
    }
    // 90 days of what Acme's services cost, for the cost pages (decision 035).
    await backfillDemoUsage(tx, { organizationId: acme.id, driver, now: new Date() });
  });
  return true;
}
