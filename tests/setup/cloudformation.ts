import { CloudFormationClient, CreateStackCommand } from "@aws-sdk/client-cloudformation";
import { motoCredentials } from "./moto-server";

/** The parameters of an AWS console quick-create link (they follow `#/stacks/quickcreate?`). */
export function quickCreateParameters(link: string): URLSearchParams {
  return new URLSearchParams(new URL(link).hash.split("?")[1] ?? "");
}

/**
 * Does what the user does on the AWS console's quick-create page: fetches the template from the link's
 * templateURL and creates the stack with the link's parameters. `externalId` replaces the link's, to stand for
 * a role deployed for another generation.
 */
export async function deployQuickCreateStack({
  link,
  endpoint,
  externalId,
}: {
  link: string;
  endpoint: string;
  externalId?: string;
}): Promise<string> {
  const url = new URL(link);
  const region = url.searchParams.get("region") ?? "us-east-1";
  const parameters = quickCreateParameters(link);
  const templateResponse = await fetch(parameters.get("templateURL") ?? "");
  if (!templateResponse.ok) throw new Error(`the template answered ${templateResponse.status}`);
  const stackName = parameters.get("stackName") ?? "";
  await new CloudFormationClient({ region, endpoint, credentials: motoCredentials }).send(
    new CreateStackCommand({
      StackName: stackName,
      TemplateBody: await templateResponse.text(),
      Capabilities: ["CAPABILITY_NAMED_IAM"],
      Parameters: [...parameters.entries()]
        .filter(([key]) => key.startsWith("param_"))
        .map(([key, value]) => ({
          ParameterKey: key.slice("param_".length),
          ParameterValue: key === "param_ExternalId" && externalId ? externalId : value,
        })),
    }),
  );
  return stackName;
}
