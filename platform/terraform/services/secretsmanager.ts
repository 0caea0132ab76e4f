import type { SecretListEntry } from "@aws-sdk/client-secrets-manager";
import { attributes, tagsOf, type ScannedResource } from "../model";
import { collect, type ServiceScanner } from "./service-scanner";

export type SecretsManagerInventory = { secrets: SecretListEntry[] };

const service = "secretsmanager";

/**
 * Secrets as `aws_secretsmanager_secret`, their metadata only: ListSecrets does not return values and the scan
 * never reads them (no GetSecretValue), so the archive holds no secret and importing it sets none.
 */
export const secretsManagerScanner: ServiceScanner<SecretsManagerInventory> = {
  service,
  permissions: ["secretsmanager:ListSecrets"],

  async read(clients) {
    const { paginateListSecrets } = await import("@aws-sdk/client-secrets-manager");
    const client = await clients.secretsManager();
    const secrets = await collect(paginateListSecrets({ client }, {}), (page) => page.SecretList);
    return { secrets };
  },

  toResources(raw) {
    return raw.secrets.flatMap((secret): ScannedResource[] => {
      // A secret scheduled for deletion is on its way out; Terraform could not manage it.
      if (!secret.ARN || !secret.Name || secret.DeletedDate) return [];
      return [
        {
          service,
          type: "aws_secretsmanager_secret",
          awsId: secret.ARN,
          importId: secret.ARN,
          nameHint: secret.Name,
          body: attributes({
            name: secret.Name,
            description: secret.Description || undefined,
            kms_key_id: secret.KmsKeyId,
            tags: tagsOf(secret.Tags),
          }),
        },
      ];
    });
  },
};
