import type * as z from "zod";
import type { awsRoleSetupSchema } from "#contract/connections";
import type { PlatformConfig } from "../lib/config";
import { publicFilePaths } from "../terraform/download-links";
import { callerAccountId, quickCreateLink } from "../terraform/role-access";
import { deployRoleNameFor } from "./deploy-role";

export type AwsRoleSetup = z.infer<typeof awsRoleSetupSchema>;

/**
 * The platform cannot say which account a role must trust: it has no AWS identity of its own (no credentials, or
 * STS refused them) and AWS_PLATFORM_ACCOUNT_ID is unset. `message` is for the user; the role method cannot work
 * on this platform, access keys still do.
 */
export class AwsRoleSetupUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "AwsRoleSetupUnavailableError";
  }
}

/** Why the role method is off, in a user's words; the operator's side is in the README's configuration table. */
export const ROLE_ACCESS_NOT_SET_UP = "Your administrator has not set up role access yet; use access keys.";

/**
 * The platform's account by endpoint and region: read from STS once, as it does not change while it runs. A failed
 * lookup is remembered too: without credentials the SDK's chain can take seconds (instance metadata time-outs), and
 * every AWS form would wait that long again. Credentials come from the environment read at start, so a restart
 * is what changes the answer.
 */
const platformAccounts = new Map<string, Promise<string>>();

async function trustedAccountOf(settings: PlatformConfig["terraform"]): Promise<string> {
  if (settings.platformAccountId) return settings.platformAccountId;
  const key = `${settings.awsEndpoint ?? "aws"} ${settings.awsRegion}`;
  let account = platformAccounts.get(key);
  if (!account) {
    account = callerAccountId({ region: settings.awsRegion, endpoint: settings.awsEndpoint });
    platformAccounts.set(key, account);
    account.catch((error: unknown) =>
      console.warn(
        `platform: the AWS role method is off: the platform has no AWS identity (${String(error)}). ` +
          "Give it AWS credentials or set AWS_PLATFORM_ACCOUNT_ID, then restart it.",
      ),
    );
  }
  try {
    return await account;
  } catch (error) {
    throw new AwsRoleSetupUnavailableError(ROLE_ACCESS_NOT_SET_UP, { cause: error });
  }
}

/**
 * What the AWS connection's role method shows (issues 13 and 24): the organization's external id, the account the
 * role trusts and the CloudFormation quick-create link for the deploy role template (connections/deploy-role.ts,
 * served by the files app), which may delete only what carries the organization's id. The role is named after the
 * external id, so each organization's stack has its own.
 */
export async function awsRoleSetup(
  config: Pick<PlatformConfig, "publicUrl" | "terraform">,
  { externalId, organizationId }: { externalId: string; organizationId: string },
): Promise<AwsRoleSetup> {
  const settings = config.terraform;
  const templateUrl =
    settings.deployTemplateUrl ?? `${config.publicUrl}${publicFilePaths.deployRoleTemplate()}`;
  const trustedAccountId = await trustedAccountOf(settings);
  return {
    externalId,
    trustedAccountId,
    templateUrl,
    launchStackUrl: quickCreateLink({
      region: settings.awsRegion,
      templateUrl,
      roleName: deployRoleNameFor(externalId),
      externalId,
      trustedAccountId,
      parameters: { OrganizationId: organizationId },
    }),
  };
}
