import type { DeployContext } from "../driver";

/**
 * Labels on everything the containers driver creates, as the AWS driver tags what it creates: a repeated step
 * finds what an earlier attempt made (restart safety), a teardown finds everything of the service, and an
 * engine shared by several organizations keeps each one's apart.
 */
export const LABEL_ORGANIZATION = "cloud-console.organization";
export const LABEL_ENVIRONMENT = "cloud-console.environment";
export const LABEL_SERVICE = "cloud-console.service";
/** The rollout a container belongs to: one per deployment, chosen at its first step. */
export const LABEL_DEPLOYMENT = "cloud-console.deployment";
/**
 * What a container does for its deployment besides being the service (`pre-deploy`, `seed`: a one-off command);
 * absent on the service's own containers, which the drift check, units and switch-over read.
 */
export const LABEL_ROLE = "cloud-console.role";

export function labelsOf(context: DeployContext, deployment: string): Record<string, string> {
  return {
    [LABEL_ORGANIZATION]: context.organizationId,
    [LABEL_ENVIRONMENT]: context.environmentId,
    [LABEL_SERVICE]: context.resource.id,
    [LABEL_DEPLOYMENT]: deployment,
  };
}

/** The engine's list filter for containers carrying all of `labels`. */
export const labelFilter = (labels: Record<string, string>) =>
  JSON.stringify({ label: Object.entries(labels).map(([key, value]) => `${key}=${value}`) });
