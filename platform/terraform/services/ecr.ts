import type { Repository } from "@aws-sdk/client-ecr";
import { attributes, block, type ScannedResource } from "../model";
import { collect, type ServiceScanner } from "./service-scanner";

export type EcrInventory = { repositories: Repository[] };

const service = "ecr";

export const ecrScanner: ServiceScanner<EcrInventory> = {
  service,
  permissions: ["ecr:DescribeRepositories"],

  async read(clients) {
    const { paginateDescribeRepositories } = await import("@aws-sdk/client-ecr");
    const client = await clients.ecr();
    const repositories = await collect(
      paginateDescribeRepositories({ client }, {}),
      (page) => page.repositories,
    );
    return { repositories };
  },

  toResources(raw) {
    return raw.repositories.flatMap((repository): ScannedResource[] => {
      const name = repository.repositoryName;
      if (!name) return [];
      const encryption = repository.encryptionConfiguration;
      return [
        {
          service,
          type: "aws_ecr_repository",
          awsId: repository.repositoryArn ?? name,
          importId: name,
          nameHint: name,
          body: [
            ...attributes({ name, image_tag_mutability: repository.imageTagMutability }),
            block(
              "image_scanning_configuration",
              attributes({ scan_on_push: repository.imageScanningConfiguration?.scanOnPush ?? false }),
            ),
            ...(encryption?.encryptionType
              ? [
                  block(
                    "encryption_configuration",
                    attributes({ encryption_type: encryption.encryptionType, kms_key: encryption.kmsKey }),
                  ),
                ]
              : []),
          ],
        },
      ];
    });
  },
};
