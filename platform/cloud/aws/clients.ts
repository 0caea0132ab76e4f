export type AwsCredentials = {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
  expiration?: Date;
};

export type AwsConnection = {
  region: string;
  /** Unset: the SDK's default credential chain (environment, shared files, instance or task role). */
  credentials?: AwsCredentials;
  /** One endpoint for every service (moto_server in tests); S3 then uses path-style addresses. */
  endpoint?: string;
  /** Attempts per call, throttling included (the SDK backs off exponentially between them). */
  maxAttempts?: number;
  /** Gives up on a call that has not connected or answered by then; unset, the SDK waits as long as the OS does. */
  timeoutMs?: number;
};

/**
 * Eight attempts with the SDK's adaptive retry mode: throttling errors (Throttling, RequestLimitExceeded,
 * TooManyRequestsException, ...) are retried with exponential backoff and jitter, and the client slows its own
 * request rate after being throttled, so a large account is scanned without failing on rate limits.
 */
export const DEFAULT_MAX_ATTEMPTS = 8;

function clientConfig(connection: AwsConnection) {
  return {
    region: connection.region,
    maxAttempts: connection.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
    retryMode: "adaptive",
    ...(connection.credentials ? { credentials: connection.credentials } : {}),
    ...(connection.endpoint ? { endpoint: connection.endpoint } : {}),
    ...(connection.timeoutMs
      ? {
          requestHandler: {
            connectionTimeout: connection.timeoutMs,
            requestTimeout: connection.timeoutMs,
            throwOnRequestTimeout: true,
          },
        }
      : {}),
  };
}

/**
 * The SDK clients of one region and identity, each loaded and created on first use: the SDK is only imported
 * by a platform that scans AWS (the demo platform never loads it, and starts faster for it).
 */
export function createAwsClients(connection: AwsConnection) {
  const config = clientConfig(connection);
  const created: { destroy: () => void }[] = [];
  function lazy<Client extends { destroy: () => void }>(
    create: () => Promise<Client>,
  ): () => Promise<Client> {
    let client: Promise<Client> | undefined;
    return () =>
      (client ??= create().then((instance) => {
        created.push(instance);
        return instance;
      }));
  }
  const clients = {
    region: connection.region,
    ec2: lazy(async () => new (await import("@aws-sdk/client-ec2")).EC2Client(config)),
    s3: lazy(
      async () =>
        new (await import("@aws-sdk/client-s3")).S3Client({
          ...config,
          forcePathStyle: Boolean(connection.endpoint),
          followRegionRedirects: true,
        }),
    ),
    rds: lazy(async () => new (await import("@aws-sdk/client-rds")).RDSClient(config)),
    elasticache: lazy(
      async () => new (await import("@aws-sdk/client-elasticache")).ElastiCacheClient(config),
    ),
    dynamodb: lazy(async () => new (await import("@aws-sdk/client-dynamodb")).DynamoDBClient(config)),
    sqs: lazy(async () => new (await import("@aws-sdk/client-sqs")).SQSClient(config)),
    sns: lazy(async () => new (await import("@aws-sdk/client-sns")).SNSClient(config)),
    lambda: lazy(async () => new (await import("@aws-sdk/client-lambda")).LambdaClient(config)),
    ecr: lazy(async () => new (await import("@aws-sdk/client-ecr")).ECRClient(config)),
    eks: lazy(async () => new (await import("@aws-sdk/client-eks")).EKSClient(config)),
    elbv2: lazy(
      async () =>
        new (await import("@aws-sdk/client-elastic-load-balancing-v2")).ElasticLoadBalancingV2Client(config),
    ),
    iam: lazy(async () => new (await import("@aws-sdk/client-iam")).IAMClient(config)),
    resourceGroupsTagging: lazy(
      async () =>
        new (await import("@aws-sdk/client-resource-groups-tagging-api")).ResourceGroupsTaggingAPIClient(
          config,
        ),
    ),
    route53: lazy(async () => new (await import("@aws-sdk/client-route-53")).Route53Client(config)),
    acm: lazy(async () => new (await import("@aws-sdk/client-acm")).ACMClient(config)),
    sts: lazy(async () => new (await import("@aws-sdk/client-sts")).STSClient(config)),
    applicationAutoScaling: lazy(
      async () =>
        new (await import("@aws-sdk/client-application-auto-scaling")).ApplicationAutoScalingClient(config),
    ),
    ecs: lazy(async () => new (await import("@aws-sdk/client-ecs")).ECSClient(config)),
    cloudWatch: lazy(async () => new (await import("@aws-sdk/client-cloudwatch")).CloudWatchClient(config)),
    cloudWatchLogs: lazy(
      async () => new (await import("@aws-sdk/client-cloudwatch-logs")).CloudWatchLogsClient(config),
    ),
    secretsManager: lazy(
      async () => new (await import("@aws-sdk/client-secrets-manager")).SecretsManagerClient(config),
    ),
    /** Closes the connections of every client created so far. */
    destroy: () => {
      for (const client of created.splice(0)) client.destroy();
    },
  };
  return clients;
}

export type AwsClients = ReturnType<typeof createAwsClients>;
