import { AWS_ROLE_ACCESS_NOT_SET_UP, methodOf, type ConnectionKind } from "#contract/connections";
import { userMessageOf } from "~/platform/action-errors.server";
import { isPlatformError, type PlatformClient } from "~/platform/client.server";
import { getAwsRoleSetup, listConnections } from "~/platform/connections.server";
import type { RoleSetup } from "./aws-role-setup";
import type { ConnectionChoices } from "./connection-editor";
import { methodOrDefault } from "./connection-form";

/**
 * What a create or edit form needs besides the catalogue: the method it opens on (the one asked for, else the first
 * that can work here), the connections its fields can point at (asked for only when a field does) and, for AWS, the
 * role flow's external id and CloudFormation link. When the operator has not set up role access, access keys come
 * first and the role method says why it cannot be used; another failure of the setup is shown in its place.
 */
export async function loadEditorData(
  api: PlatformClient,
  tenantId: string,
  kind: ConnectionKind,
  askedMethod: string | null,
): Promise<{
  methodId: string;
  choices: ConnectionChoices;
  roleSetup: RoleSetup | null;
  /** Methods that cannot work on this platform, with why in a user's words. */
  unavailableMethods: Record<string, string>;
}> {
  const roleSetup = kind === "AWS" ? await loadRoleSetup(api, tenantId) : null;
  const unavailableMethods: Record<string, string> =
    roleSetup?.kind === "unavailable" ? { role: roleSetup.message } : {};
  const methodId = methodOrDefault(kind, askedMethod, Object.keys(unavailableMethods));
  const fields = methodOf(kind, methodId)?.fields ?? [];
  const pointsAtConnections = fields.some(
    (field) => field.options === "aws-connections" || field.options === "github-connections",
  );
  const connections = pointsAtConnections ? await listConnections(api, tenantId) : [];
  const choicesOf = (of: ConnectionKind) =>
    connections
      .filter((connection) => connection.kind === of)
      .map((connection) => ({ value: connection.id, label: connection.name }));
  return {
    methodId,
    choices: {
      "aws-connections": choicesOf("AWS"),
      "github-connections": choicesOf("VERSION_CONTROL_TYPE_GITHUB"),
    },
    roleSetup: methodId === "role" ? roleSetup : null,
    unavailableMethods,
  };
}

async function loadRoleSetup(api: PlatformClient, tenantId: string): Promise<RoleSetup> {
  try {
    const { externalId, trustedAccountId, launchStackUrl } = await getAwsRoleSetup(api, tenantId);
    return { kind: "ok", externalId, trustedAccountId, launchStackUrl };
  } catch (error) {
    if (!isPlatformError(error)) throw error;
    if (error.code === AWS_ROLE_ACCESS_NOT_SET_UP) return { kind: "unavailable", message: error.message };
    return { kind: "error", message: userMessageOf(error) };
  }
}
