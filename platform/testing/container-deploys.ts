import { randomUUID } from "node:crypto";
import { defaultServiceSettings } from "#contract/services";
import { defaultServiceConfigs } from "#contract/service-configs";
import type { DeployContext, DeployDriver, DriverResource, NewLogLine } from "../cloud/driver";

/**
 * The engine's side of the containers driver, for tests against a real engine: a deployment's context, and its
 * steps called until done, waiting each step's `waitMs` as the job runner does (the driver is built with a small
 * time scale, so the waits are short).
 */

/**
 * The organization of this file's deployments (modules are evaluated per test file): the label that tells its
 * containers from another file's on the machine's one store, for the set-up's clean-up.
 */
export const testOrganizationId = `org-${randomUUID()}`;

export function containerApplicationResource(
  image: string,
  settings: Partial<DriverResource["settings"]> = {},
): DriverResource {
  return {
    id: randomUUID(),
    name: "web",
    serviceType: "application",
    config: { ...defaultServiceConfigs.application, source: { kind: "image", image } },
    settings: {
      ...defaultServiceSettings,
      networking: { port: 8080, public: true, customDomain: "" },
      healthCheck: {
        path: "/healthz",
        port: 8080,
        intervalSeconds: 5,
        timeoutSeconds: 2,
        healthyThreshold: 2,
      },
      ...settings,
    },
    environmentName: "production",
    cloudProvider: "AWS",
    region: "local",
  };
}

export function containerContext(
  resource: DriverResource,
  state: Record<string, string> = {},
  overrides: Partial<DeployContext> = {},
): DeployContext {
  return {
    resource,
    organizationId: testOrganizationId,
    environmentId: "env-1",
    state,
    network: null,
    step: 0,
    progress: null,
    change: "deploy",
    podNames: [`${resource.name}-pod`],
    secretsSealed: false,
    now: new Date(),
    ...overrides,
  };
}

export type Deployed = {
  state: Record<string, string>;
  endpoint: string | null;
  /** The done step's secret attributes and outputs (a data service's connection string, its host and port). */
  secrets: Record<string, string>;
  outputs: Record<string, string>;
  progress: string[];
  lines: NewLogLine[];
};

/**
 * Calls `apply` until done, from the context's step on (a deployment the platform resumes), carrying state and
 * progress and waiting as told; a thrown step carries `lines` too.
 */
export async function deployUntilDone(
  driver: DeployDriver,
  context: DeployContext,
  maxSteps = 40,
): Promise<Deployed> {
  const progress: string[] = [];
  const lines: NewLogLine[] = [];
  let state = { ...context.state };
  for (let step = context.step; step < context.step + maxSteps; step++) {
    const result = await driver.apply({
      ...context,
      state,
      step,
      progress: progress.at(-1) ?? null,
      now: new Date(),
    });
    lines.push(...result.lines);
    state = result.state;
    if (result.done) {
      const { endpoint, secrets, outputs } = result;
      return { state, endpoint, secrets, outputs, progress, lines };
    }
    progress.push(result.progress);
    await new Promise((resolve) => setTimeout(resolve, result.waitMs));
  }
  throw new Error(`apply did not finish in ${maxSteps} steps; last: ${progress.at(-1)}`);
}

export async function destroyUntilDone(driver: DeployDriver, context: DeployContext): Promise<NewLogLine[]> {
  const lines: NewLogLine[] = [];
  for (let step = 0; step < 20; step++) {
    const result = await driver.destroy?.({ ...context, step, now: new Date() });
    if (!result) return lines;
    lines.push(...result.lines);
    if (result.done) return lines;
    await new Promise((resolve) => setTimeout(resolve, result.waitMs));
  }
  throw new Error("destroy did not finish in 20 steps");
}
