import { eq } from "drizzle-orm";
import { CloudStepError } from "../cloud/driver";
import type { AwsAccount, AwsDriver } from "../cloud/aws/driver";
import type { Database } from "../db/index";
import { connections, organizations } from "../db/schema";
import type { EnvironmentRow } from "../environments/records";
import type { SecretCipher } from "../lib/cipher";
import { awsAccess } from "./providers/aws";
import { credentialsOf, type ConnectionRow } from "./records";
import { ProviderRefusal } from "./refusals";

/** What the AWS driver needs of the organization a connection belongs to (its role's external id). */
export type AwsOrganization = { id: string; name: string; awsExternalId: string };

/** The AWS connection an environment runs in, with its organization; null when it runs in no AWS account. */
export async function awsAccountOf(
  tx: Database,
  environment: EnvironmentRow,
): Promise<{ connection: ConnectionRow; organization: AwsOrganization } | null> {
  if (!environment.cloudConnectionId) return null;
  const [connection] = await tx
    .select()
    .from(connections)
    .where(eq(connections.id, environment.cloudConnectionId));
  if (connection?.kind !== "AWS") return null;
  const [organization] = await tx
    .select({ id: organizations.id, name: organizations.name, awsExternalId: organizations.awsExternalId })
    .from(organizations)
    .where(eq(organizations.id, connection.organizationId));
  if (!organization) throw new Error(`the connection ${connection.id} has no organization`);
  return { connection, organization };
}

/**
 * A connection's refusal (credentials that could not be used) as a failed step: only an endpoint that did not
 * answer may do better on the next try. Undefined for any other error.
 */
export function refusalAsStepError(error: unknown): CloudStepError | undefined {
  if (!(error instanceof ProviderRefusal)) return undefined;
  const unreachable = /^Could not reach |did not answer within/.test(error.message);
  return new CloudStepError(error.message, { transient: unreachable });
}

/**
 * The AWS driver seen from the connections: an AWS connection of an organization is the account the driver works
 * in, its credentials read here and confirmed as the connection's check does (`awsAccess`: the role assumed with
 * the organization's external id, or the keys). The driver keeps them by the connection's id and version.
 */
export function awsConnections({
  driver,
  secrets,
  endpoint,
  appUrl,
}: {
  driver: AwsDriver;
  secrets: SecretCipher;
  /** AWS_ENDPOINT_URL: one endpoint for every call (moto_server in tests); unset, AWS's own. */
  endpoint?: string;
  /** The app's address, for the messages of a refused connection. */
  appUrl: string;
}) {
  function accountOf(row: ConnectionRow, organization: AwsOrganization): AwsAccount {
    return {
      key: `${row.id}:${row.updatedAt.getTime()}`,
      confirm: async (region) => {
        const access = await awsAccess(
          credentialsOf(secrets, row),
          {
            awsEndpoint: endpoint,
            awsExternalId: organization.awsExternalId,
            organizationName: organization.name,
            appUrl,
            // AWS needs no other connection.
            connection: async () => undefined,
          },
          region,
        );
        return access.connection;
      },
    };
  }
  return {
    /**
     * The AWS connection `row`'s credentials in `region`, as its check confirmed them, kept while fresh: what the
     * logs and monitoring tabs read CloudWatch with, and what the Terraform export of an environment reads its
     * resources with.
     */
    connectionOf: (row: ConnectionRow, organization: AwsOrganization, region: string) =>
      driver.connectionOf(accountOf(row, organization), region),
    /** The deploy driver of the environments that run in the AWS connection `row` of `organization`. */
    forConnection: (row: ConnectionRow, organization: AwsOrganization) =>
      driver.forAccount(accountOf(row, organization)),
  };
}

export type AwsConnections = ReturnType<typeof awsConnections>;
