import { TAG_ENVIRONMENT } from "../cloud/aws/provisioner";
import { archiveBaseName, createArchive, environmentArchiveBaseName } from "./archive";
import { createAwsClients, type AwsConnection } from "../cloud/aws/clients";
import { demoRawInventory } from "./demo-account";
import type { Inventory } from "./model";
import { PRODUCT_NAME, ROLE_NAME_PREFIX } from "./role-access";
import { inventoryFrom, readAccount } from "./scanner";
import { writeTerraformProject } from "./terraform-project";

export type AccountScope = { accountId: string; region: string };

/** Reads the region of the account `connection` reaches and turns what it finds into Terraform resources. */
export async function scanAccount(connection: AwsConnection, scope: AccountScope): Promise<Inventory> {
  const clients = createAwsClients(connection);
  try {
    const { raw, skipped } = await readAccount(clients);
    return inventoryFrom(raw, skipped, { ...scope, productRolePrefix: ROLE_NAME_PREFIX });
  } finally {
    clients.destroy();
  }
}

/** The demo account inventory, converted exactly as a real scan's answers are. */
export function demoInventory(scope: AccountScope): Inventory {
  return inventoryFrom(demoRawInventory(scope.accountId, scope.region), [], {
    ...scope,
    productRolePrefix: ROLE_NAME_PREFIX,
  });
}

/** The zip the user downloads: README and one Terraform folder per service, under one top-level folder. */
export function terraformArchive({
  scope,
  inventory,
  source,
  generatedAt,
  environment,
}: {
  scope: AccountScope;
  inventory: Inventory;
  source: "aws" | "demo";
  generatedAt: Date;
  /** An environment's export: its README says so, and its folder is named after the environment. */
  environment?: { id: string; name: string };
}): Uint8Array {
  const files = writeTerraformProject({
    ...scope,
    inventory,
    source,
    generatedAt,
    productName: PRODUCT_NAME,
    ...(environment ? { environment: { ...environment, tag: TAG_ENVIRONMENT } } : {}),
  });
  const folder = environment
    ? environmentArchiveBaseName(environment.name, scope.region)
    : archiveBaseName(scope.accountId, scope.region);
  return createArchive(folder, files);
}
