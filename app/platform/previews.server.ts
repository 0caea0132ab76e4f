import {
  previewListSchema,
  previewPaths,
  previewResponseSchema,
  previewSettingsChangeResponseSchema,
  previewSettingsResponseSchema,
  type PreviewSettingsRequest,
} from "#contract/previews";
import type { PlatformClient } from "./client.server";

/** The organization's pull request previews, with the environment each runs in and its source. */
export async function listPreviews(api: PlatformClient, tenantId: string) {
  const { previews } = await api.get(previewPaths.list(tenantId), previewListSchema);
  return previews;
}

export async function getPreviewSettings(api: PlatformClient, tenantId: string, environmentId: string) {
  const { previewSettings } = await api.get(
    previewPaths.settings(tenantId, environmentId),
    previewSettingsResponseSchema,
  );
  return previewSettings;
}

/** Saves the setting; the first save answers the webhook's secret, this once. */
export async function updatePreviewSettings(
  api: PlatformClient,
  tenantId: string,
  environmentId: string,
  settings: PreviewSettingsRequest,
) {
  return api.put(
    previewPaths.settings(tenantId, environmentId),
    previewSettingsChangeResponseSchema,
    settings,
  );
}

/** The pull request `environmentId` is the preview of, or null. */
export async function getEnvironmentPreview(api: PlatformClient, tenantId: string, environmentId: string) {
  const { preview } = await api.get(
    previewPaths.ofEnvironment(tenantId, environmentId),
    previewResponseSchema,
  );
  return preview;
}

/** The live previews of `environmentId` as a source: what deleting it removes with it. */
export async function listPreviewsOfSource(api: PlatformClient, tenantId: string, environmentId: string) {
  const { previews } = await api.get(previewPaths.ofSource(tenantId, environmentId), previewListSchema);
  return previews;
}
