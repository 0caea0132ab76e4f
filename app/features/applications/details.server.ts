import * as z from "zod";
import type { Resource } from "#contract/services";
import { getDeployOnPush } from "~/platform/applications.server";
import { userMessageOf } from "~/platform/action-errors.server";
import { isPlatformError, type PlatformClient } from "~/platform/client.server";
import { applicationFormSchemaOf } from "./create-form";
import type { DeployOnPushState } from "./deploy-on-push-panel";
import { editIntentSchema, versionSchema } from "./edit-form";

/** Whether the application (as saved, what pushes deploy) builds from a GitHub repository. */
export function buildsFromGitHub(service: Pick<Resource, "serviceType" | "config">): boolean {
  const source = service.config.source as { kind?: unknown } | undefined;
  return service.serviceType === "application" && source?.kind === "github";
}

/** Deploy on push's settings for an application from GitHub; null for any other service. */
export async function loadDeployOnPush(
  api: PlatformClient,
  tenantId: string,
  environmentId: string,
  service: Pick<Resource, "id" | "serviceType" | "config">,
): Promise<DeployOnPushState | null> {
  if (!buildsFromGitHub(service)) return null;
  try {
    return { kind: "ok", value: await getDeployOnPush(api, tenantId, environmentId, service.id) };
  } catch (error) {
    if (!isPlatformError(error)) throw error;
    return { kind: "error", message: userMessageOf(error) };
  }
}

/**
 * The configuration tab's action check of an application: the contract's whole configuration schema, the Helm
 * values' YAML included (loaded here, on the server only; the browser checks the fields without it).
 */
export async function editApplicationActionSchema() {
  const { applicationConfigSchema } = await import("#contract/applications");
  return applicationFormSchemaOf(
    z.object({ intent: editIntentSchema, version: versionSchema, config: applicationConfigSchema }),
  );
}

/** The configuration alone, as the plan of the form's values reads it (the same checks as the action's). */
export async function applicationConfigFormSchema() {
  const { applicationConfigSchema } = await import("#contract/applications");
  return applicationFormSchemaOf(z.object({ config: applicationConfigSchema }));
}
