import type { ECRClient } from "@aws-sdk/client-ecr";
import type { ConnectionFieldName } from "#contract/connections";
import { createAwsClients } from "../../cloud/aws/clients";
import { isAwsError } from "../../cloud/aws/aws-errors";
import type { Credentials, Provider, ProviderContext, Repository, Tag } from "../providers";
import {
  awsAccess,
  awsRefusal,
  isAccessDenied,
  awsServiceUrl,
  DEFAULT_AWS_REGION,
  type AwsAccess,
} from "./aws";
import { checkWith, ProviderRefusal } from "../refusals";

/**
 * Amazon ECR (SPEC §3): through one of the organization's AWS connections (its role or keys, opened by the AWS
 * provider's code, in the registry's region) or with access keys of its own.
 */

/** Where to point when ECR refuses: the AWS connection chosen, or the registry's own access key. */
function credentialsField(credentials: Credentials): ConnectionFieldName {
  return credentials.method === "connection" ? "AWS_CONNECTION_ID" : "ACCESS_KEY_ID";
}

async function ecrAccess(credentials: Credentials, context: ProviderContext): Promise<AwsAccess> {
  const region = credentials.fields.REGION ?? DEFAULT_AWS_REGION;
  if (credentials.method !== "connection") return awsAccess(credentials, context, region);

  const id = credentials.fields.AWS_CONNECTION_ID;
  const connection = id ? await context.connection(id) : undefined;
  if (connection?.kind !== "AWS") {
    throw new ProviderRefusal(
      "The AWS connection chosen is not one of this organization's AWS connections (was it deleted?): choose another.",
      "AWS_CONNECTION_ID",
    );
  }
  try {
    return await awsAccess(connection, context, region);
  } catch (error) {
    if (!(error instanceof ProviderRefusal)) throw error;
    throw new ProviderRefusal(
      `The AWS connection chosen failed its check: ${error.message}`,
      "AWS_CONNECTION_ID",
    );
  }
}

/** Runs one ECR call with the access's credentials; AWS's refusals in plain words. */
async function withEcr<T>(
  access: AwsAccess,
  credentials: Credentials,
  action: string,
  call: (ecr: ECRClient) => Promise<T>,
): Promise<T> {
  const clients = createAwsClients(access.connection);
  try {
    return await call(await clients.ecr());
  } catch (error) {
    if (error instanceof ProviderRefusal) throw error;
    if (isAccessDenied(error)) {
      throw new ProviderRefusal(
        `AWS did not let ${access.arn} call ECR ${action}: grant it ecr:GetAuthorizationToken, ` +
          "ecr:DescribeRepositories and ecr:DescribeImages.",
        credentialsField(credentials),
      );
    }
    throw awsRefusal(error, {
      url: awsServiceUrl("api.ecr", access.connection.region, access.connection.endpoint),
      action: `ECR ${action}`,
      field: credentialsField(credentials),
    });
  } finally {
    clients.destroy();
  }
}

async function listRepositories(access: AwsAccess, credentials: Credentials): Promise<Repository[]> {
  const { paginateDescribeRepositories } = await import("@aws-sdk/client-ecr");
  return withEcr(access, credentials, "DescribeRepositories", async (client) => {
    const repositories: Repository[] = [];
    for await (const page of paginateDescribeRepositories({ client, pageSize: 1000 }, {})) {
      for (const repository of page.repositories ?? []) {
        if (!repository.repositoryName) continue;
        // ECR keeps no "updated" time for a repository; its URI is what a deployment pulls from.
        repositories.push({
          name: repository.repositoryName,
          description: repository.repositoryUri ?? null,
          updatedAt: null,
        });
      }
    }
    return repositories.sort((a, b) => a.name.localeCompare(b.name));
  });
}

export const awsEcr: Provider = {
  check: (credentials, context) =>
    checkWith(async () => {
      const access = await ecrAccess(credentials, context);
      const { GetAuthorizationTokenCommand } = await import("@aws-sdk/client-ecr");
      const authorization = await withEcr(access, credentials, "GetAuthorizationToken", (ecr) =>
        ecr.send(new GetAuthorizationTokenCommand({})),
      );
      const registry = authorization.authorizationData?.[0]?.proxyEndpoint;
      const repositories = await listRepositories(access, credentials);
      const count = `${repositories.length} ${repositories.length === 1 ? "repository" : "repositories"}`;
      return {
        message: `Amazon ECR accepted ${access.arn}: ${count} in ${access.connection.region} of account ${access.accountId}.`,
        details: [...access.details, ...(registry ? [`Registry ${new URL(registry).host}`] : []), count],
      };
    }),

  async repositories(credentials, context) {
    return listRepositories(await ecrAccess(credentials, context), credentials);
  },

  /**
   * DescribeImages of the tag: its digest, or ECR's ImageNotFoundException / RepositoryNotFoundException in the
   * words a pull gives them (MANIFEST_UNKNOWN, NAME_UNKNOWN).
   */
  async manifest(credentials, context, repository, tag) {
    const access = await ecrAccess(credentials, context);
    const { DescribeImagesCommand, GetAuthorizationTokenCommand } = await import("@aws-sdk/client-ecr");
    const registry = `${access.accountId}.dkr.ecr.${access.connection.region}.amazonaws.com`;
    const image = `${registry}/${repository}:${tag}`;
    const clients = createAwsClients(access.connection);
    try {
      const ecr = await clients.ecr();
      const answer = await ecr.send(
        new DescribeImagesCommand({ repositoryName: repository, imageIds: [{ imageTag: tag }] }),
      );
      const digest = answer.imageDetails?.[0]?.imageDigest;
      if (!digest)
        throw new ProviderRefusal(`Failed to pull image "${image}": ECR answered without a digest.`);
      // What `aws ecr get-login-password` gives: a 12-hour token, "AWS:<password>" in base64, for the engine's pull.
      const authorization = await ecr.send(new GetAuthorizationTokenCommand({}));
      const [username = "", ...password] = Buffer.from(
        authorization.authorizationData?.[0]?.authorizationToken ?? "",
        "base64",
      )
        .toString("utf8")
        .split(":");
      if (!password.length) return { digest, image };
      return { digest, image, auth: { username, password: password.join(":"), serveraddress: registry } };
    } catch (error) {
      if (error instanceof ProviderRefusal) throw error;
      // As a pull from ECR's registry API reads (its v2 error codes), with ECR's own answer after it.
      if (isAwsError(error, "ImageNotFoundException")) {
        const { name, message } = error as Error;
        throw new ProviderRefusal(
          `Failed to pull image "${image}": MANIFEST_UNKNOWN: manifest unknown (ECR ${name}: ${message})`,
        );
      }
      if (isAwsError(error, "RepositoryNotFoundException")) {
        const { name, message } = error as Error;
        throw new ProviderRefusal(
          `Failed to pull image "${image}": NAME_UNKNOWN: repository name not known to registry (ECR ${name}: ${message})`,
        );
      }
      if (isAccessDenied(error)) {
        throw new ProviderRefusal(
          `Failed to pull image "${image}": unauthorized: AWS did not let ${access.arn} call ECR DescribeImages.`,
          credentialsField(credentials),
        );
      }
      throw error;
    } finally {
      clients.destroy();
    }
  },

  async tags(credentials, context, repository) {
    const access = await ecrAccess(credentials, context);
    const { paginateDescribeImages } = await import("@aws-sdk/client-ecr");
    return withEcr(access, credentials, "DescribeImages", async (client) => {
      const tags: Tag[] = [];
      const pages = paginateDescribeImages(
        { client, pageSize: 1000 },
        { repositoryName: repository, filter: { tagStatus: "TAGGED" } },
      );
      try {
        for await (const page of pages) {
          for (const image of page.imageDetails ?? []) {
            for (const name of image.imageTags ?? []) {
              tags.push({
                name,
                digest: image.imageDigest ?? null,
                pushedAt: image.imagePushedAt?.toISOString() ?? null,
              });
            }
          }
        }
      } catch (error) {
        if (!isAwsError(error, "RepositoryNotFoundException")) throw error;
        throw new ProviderRefusal(
          `Account ${access.accountId} has no ECR repository named ${repository} in ${access.connection.region}.`,
        );
      }
      // The newest first, as the registry's console lists them.
      return tags.sort(
        (a, b) => (b.pushedAt ?? "").localeCompare(a.pushedAt ?? "") || a.name.localeCompare(b.name),
      );
    });
  },
};
