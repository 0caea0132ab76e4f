import type { FunctionConfiguration } from "@aws-sdk/client-lambda";
import { attributes, block, Expression, Reference, type HclBlock, type ScannedResource } from "../model";
import { collect, mapWithConcurrency, type ServiceScanner } from "./service-scanner";
import { securityGroupReferences, subnetReferences } from "./vpc";

export type LambdaFunction = { configuration: FunctionConfiguration; imageUri?: string };
export type LambdaInventory = { functions: LambdaFunction[] };

const service = "lambda";

/** Where the README asks the user to put each function's code package before changing it with Terraform. */
export function lambdaCodePath(functionName: string): string {
  return `code/${functionName}.zip`;
}

export const lambdaScanner: ServiceScanner<LambdaInventory> = {
  service,
  permissions: ["lambda:ListFunctions", "lambda:GetFunction"],

  async read(clients) {
    const { GetFunctionCommand, paginateListFunctions } = await import("@aws-sdk/client-lambda");
    const client = await clients.lambda();
    const configurations = await collect(paginateListFunctions({ client }, {}), (page) => page.Functions);
    // Only container-image functions need GetFunction: their image URI is not in the list.
    const functions = await mapWithConcurrency(configurations, 4, async (configuration) => {
      if (configuration.PackageType !== "Image") return { configuration };
      const answer = await client.send(new GetFunctionCommand({ FunctionName: configuration.FunctionName }));
      return { configuration, imageUri: answer.Code?.ImageUri };
    });
    return { functions };
  },

  toResources(raw) {
    return raw.functions.flatMap(({ configuration, imageUri }): ScannedResource[] => {
      const name = configuration.FunctionName;
      if (!name) return [];
      const image = configuration.PackageType === "Image";
      const vpc = configuration.VpcConfig;
      const blocks: HclBlock[] = [];
      if (vpc?.SubnetIds?.length) {
        blocks.push(
          block(
            "vpc_config",
            attributes({
              subnet_ids: subnetReferences(vpc.SubnetIds),
              security_group_ids: securityGroupReferences(vpc.SecurityGroupIds),
            }),
          ),
        );
      }
      // Code is not exported, and environment values can be secrets: Terraform leaves both as they are.
      blocks.push(
        block("lifecycle", [
          {
            kind: "attribute",
            name: "ignore_changes",
            value: new Expression(
              image ? "[image_uri, environment]" : "[filename, source_code_hash, environment]",
            ),
          },
        ]),
      );
      const role = configuration.Role;
      return [
        {
          service,
          type: "aws_lambda_function",
          awsId: configuration.FunctionArn ?? name,
          importId: name,
          nameHint: name,
          body: [
            ...attributes({
              function_name: name,
              role: role ? new Reference("aws_iam_role", role, "arn", role) : undefined,
              package_type: image ? "Image" : undefined,
              image_uri: image ? imageUri : undefined,
              filename: image ? undefined : lambdaCodePath(name),
              handler: image ? undefined : configuration.Handler,
              runtime: image ? undefined : configuration.Runtime,
              memory_size: configuration.MemorySize,
              timeout: configuration.Timeout,
              architectures: configuration.Architectures ?? [],
              layers: (configuration.Layers ?? []).flatMap((layer) => (layer.Arn ? [layer.Arn] : [])),
            }),
            ...blocks,
          ],
        },
      ];
    });
  },
};
