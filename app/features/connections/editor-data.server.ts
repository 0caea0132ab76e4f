import { methodOf, type ConnectionKind } from "#contract/connections";
import { userMessageOf } from "~/platform/action-errors.server";
import { isPlatformError, type PlatformClient } from "~/platform/client.server";
import { getAwsRoleSetup, listConnections } from "~/platform/connections.server";
import type { RoleSetup } from "./aws-role-setup";
import type { ConnectionChoices } from "./connection-editor";

/**
 * What a create or edit form needs besides the catalogue: the connections its fields can point at (asked for only
 * when a field does) and, for AWS, the role flow's external id and CloudFormation link. A failure of the latter
 * is shown in its place; the rest of the form still works.
 */
export async function loadEditorData(
  api: PlatformClient,
  tenantId: string,
  kind: ConnectionKind,
  methodId: string,
): Promise<{ choices: ConnectionChoices; roleSetup: RoleSetup | null }> {
  const fields = methodOf(kind, methodId)?.fields ?? [];
  const pointsAtConnections = fields.some(
    (field) => field.options === "aws-connections" || field.options === "github-connections",
  );
  const [connections, roleSetup] = await Promise.all([
    pointsAtConnections ? listConnections(api, tenantId) : [],
    kind === "AWS" && methodId === "role" ? loadRoleSetup(api, tenantId) : null,
  ]);
  const choicesOf = (of: ConnectionKind) =>
    connections
      .filter((connection) => connection.kind === of)
      .map((connection) => ({ value: connection.id, label: connection.name }));
  return {
    choices: {
      "aws-connections": choicesOf("AWS"),
      "github-connections": choicesOf("VERSION_CONTROL_TYPE_GITHUB"),
    },
    roleSetup,
  };
}

async function loadRoleSetup(api: PlatformClient, tenantId: string): Promise<RoleSetup> {
  try {
    const { externalId, trustedAccountId, launchStackUrl } = await getAwsRoleSetup(api, tenantId);
    return { kind: "ok", externalId, trustedAccountId, launchStackUrl };
  } catch (error) {
    if (!isPlatformError(error)) throw error;
    return { kind: "error", message: userMessageOf(error) };
  }
}
