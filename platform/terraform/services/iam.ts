import type { Role } from "@aws-sdk/client-iam";
import { attributes, FunctionCall, type HclValue, type ScannedResource } from "../model";
import { collect, type ServiceScanner } from "./service-scanner";

export type IamInventory = { roles: Role[] };

const service = "iam";

/** IAM answers policy documents URL-encoded. */
export function decodePolicyDocument(document: string): unknown {
  const text = document.trimStart().startsWith("{") ? document : decodeURIComponent(document);
  return JSON.parse(text) as unknown;
}

/** A JSON value as an HCL value, for jsonencode(...). */
export function jsonToHcl(value: unknown): HclValue {
  if (
    value === null ||
    typeof value === "string" ||
    typeof value === "number" ||
    typeof value === "boolean"
  ) {
    return value;
  }
  if (Array.isArray(value)) return value.map(jsonToHcl);
  if (typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, jsonToHcl(item)]));
  }
  throw new Error(`JSON holds a ${typeof value}`);
}

export const iamScanner: ServiceScanner<IamInventory> = {
  service,
  permissions: ["iam:ListRoles"],

  async read(clients) {
    const { paginateListRoles } = await import("@aws-sdk/client-iam");
    const client = await clients.iam();
    const roles = await collect(paginateListRoles({ client }, {}), (page) => page.Roles);
    return { roles };
  },

  /** Service-linked roles belong to AWS, and the product's own read-only role is not the user's infrastructure. */
  toResources(raw, { productRolePrefix }) {
    return raw.roles.flatMap((role): ScannedResource[] => {
      const name = role.RoleName;
      if (!name || !role.Arn) return [];
      if (role.Path?.startsWith("/aws-service-role/") || name.startsWith(productRolePrefix)) return [];
      return [
        {
          service,
          type: "aws_iam_role",
          awsId: role.Arn,
          importId: name,
          nameHint: name,
          body: attributes({
            name,
            path: role.Path && role.Path !== "/" ? role.Path : undefined,
            description: role.Description || undefined,
            max_session_duration:
              role.MaxSessionDuration && role.MaxSessionDuration !== 3600
                ? role.MaxSessionDuration
                : undefined,
            assume_role_policy: role.AssumeRolePolicyDocument
              ? new FunctionCall("jsonencode", [
                  jsonToHcl(decodePolicyDocument(role.AssumeRolePolicyDocument)),
                ])
              : undefined,
          }),
        },
      ];
    });
  },
};
