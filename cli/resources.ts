import {
  environmentPaths,
  environmentSummaryListSchema,
  type EnvironmentSummary,
} from "#contract/environments";
import { resourceListSchema, servicePaths, type ResourceSummary } from "#contract/services";
import { CliError, type PlatformCall } from "./client";

/** An environment by its name or id; the error lists the names there are. */
export async function findEnvironment(
  call: PlatformCall,
  tenantId: string,
  wanted: string | undefined,
): Promise<EnvironmentSummary> {
  const { environments } = await call(
    "GET",
    environmentPaths.list(tenantId, { totals: false }),
    environmentSummaryListSchema,
  );
  if (!wanted) {
    if (environments.length === 1 && environments[0]) return environments[0];
    throw new CliError(
      `Name the environment with --environment (or CLOUD_CONSOLE_ENVIRONMENT): ${namesOf(environments)}.`,
    );
  }
  const found = environments.find((environment) => environment.name === wanted || environment.id === wanted);
  if (!found) throw new CliError(`No environment ${wanted} in the organization: ${namesOf(environments)}.`);
  return found;
}

/** A service of the environment by its name or id. */
export async function findService(
  call: PlatformCall,
  tenantId: string,
  environment: EnvironmentSummary,
  wanted: string,
): Promise<ResourceSummary> {
  const services = await servicesOf(call, tenantId, environment.id);
  const found = services.find((service) => service.name === wanted || service.id === wanted);
  if (!found) {
    throw new CliError(`No service ${wanted} in ${environment.name}: ${namesOf(services)}.`);
  }
  return found;
}

/** Every service of the environment, page by page. */
export async function servicesOf(
  call: PlatformCall,
  tenantId: string,
  environmentId: string,
): Promise<ResourceSummary[]> {
  const all: ResourceSummary[] = [];
  for (let page = 1; ; page++) {
    const answer = await call(
      "GET",
      servicePaths.list(tenantId, environmentId, { page, pageSize: 200 }),
      resourceListSchema,
    );
    all.push(...answer.infrastructure);
    if (all.length >= answer.total || !answer.infrastructure.length) return all;
  }
}

function namesOf(items: { name: string }[]): string {
  return items.length ? `there are ${items.map((item) => item.name).join(", ")}` : "there are none";
}
