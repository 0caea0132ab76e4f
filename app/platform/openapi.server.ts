import { openApiDocumentSchema, openApiPaths } from "#contract/openapi";
import type { PlatformClient } from "./client.server";

/** GET /api/openapi.json: the platform API's description, generated from its routes. */
export async function getOpenApiDocument(api: PlatformClient) {
  return api.get(openApiPaths.document(), openApiDocumentSchema);
}
