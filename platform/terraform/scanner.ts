import type { AwsClients } from "../cloud/aws/clients";
import { unansweredFailureOf } from "../cloud/aws/aws-errors";
import {
  serviceNames,
  type Inventory,
  type ScannedResource,
  type ServiceName,
  type SkippedService,
} from "./model";
import { acmScanner } from "./services/acm";
import { dynamoDbScanner } from "./services/dynamodb";
import { ec2Scanner } from "./services/ec2";
import { ecrScanner } from "./services/ecr";
import { ecsScanner } from "./services/ecs";
import { eksScanner } from "./services/eks";
import { elastiCacheScanner } from "./services/elasticache";
import { elbv2Scanner } from "./services/elbv2";
import { iamScanner } from "./services/iam";
import { lambdaScanner } from "./services/lambda";
import { logsScanner } from "./services/logs";
import { rdsScanner } from "./services/rds";
import { route53Scanner } from "./services/route53";
import { s3Scanner } from "./services/s3";
import { secretsManagerScanner } from "./services/secretsmanager";
import { mapWithConcurrency, type ScanContext, type ServiceScanner } from "./services/service-scanner";
import { snsScanner } from "./services/sns";
import { sqsScanner } from "./services/sqs";
import { vpcScanner } from "./services/vpc";

export const serviceScanners = {
  vpc: vpcScanner,
  ec2: ec2Scanner,
  s3: s3Scanner,
  rds: rdsScanner,
  elasticache: elastiCacheScanner,
  dynamodb: dynamoDbScanner,
  sqs: sqsScanner,
  sns: snsScanner,
  lambda: lambdaScanner,
  ecr: ecrScanner,
  eks: eksScanner,
  ecs: ecsScanner,
  elbv2: elbv2Scanner,
  iam: iamScanner,
  route53: route53Scanner,
  acm: acmScanner,
  secretsmanager: secretsManagerScanner,
  logs: logsScanner,
} as const;

type Scanners = typeof serviceScanners;
type RawOf<Service extends ServiceName> = Scanners[Service] extends ServiceScanner<infer Raw> ? Raw : never;

/** What AWS answered, per service, in the SDK's shapes; a service that could not be read is absent. */
export type RawInventory = { [Service in ServiceName]?: RawOf<Service> };

/** A service whose read failed for a reason other than missing permission: the whole scan fails with it. */
export class ScanError extends Error {
  constructor(
    readonly service: ServiceName,
    cause: unknown,
  ) {
    // AWS not answering reads in words (the socket's own message only repeats its code and address).
    const reason = unansweredFailureOf(cause) ?? (cause instanceof Error ? cause.message : String(cause));
    super(`Scanning ${service} failed: ${reason}`, { cause });
    this.name = "ScanError";
  }
}

/** Errors that mean "this identity may not read this service here": the service is skipped and reported. */
const permissionErrors = new Set([
  "AccessDenied",
  "AccessDeniedException",
  "UnauthorizedOperation",
  "UnauthorizedAccess",
  "AuthorizationError",
  "AuthorizationErrorException",
  "OptInRequired",
  "SubscriptionRequiredException",
]);

function scannerOf(service: ServiceName): ServiceScanner<unknown> {
  // Each entry's Raw type matches its own key; the map erases that link, RawInventory restores it.
  return serviceScanners[service] as unknown as ServiceScanner<unknown>;
}

/** The IAM actions the scan needs, sorted: the read-only role's policy. */
export function scanPermissions(): string[] {
  return [...new Set(serviceNames.flatMap((service) => serviceScanners[service].permissions))].sort();
}

/** Reads every service of the clients' region, three at a time. */
export async function readAccount(
  clients: AwsClients,
): Promise<{ raw: RawInventory; skipped: SkippedService[] }> {
  const raw: Record<string, unknown> = {};
  const skipped: SkippedService[] = [];
  await mapWithConcurrency(serviceNames, 3, async (service) => {
    try {
      raw[service] = await scannerOf(service).read(clients);
    } catch (error) {
      if (error instanceof Error && permissionErrors.has(error.name)) {
        skipped.push({ service, reason: `${error.name}: ${error.message}` });
        return;
      }
      throw new ScanError(service, error);
    }
  });
  skipped.sort((a, b) => serviceNames.indexOf(a.service) - serviceNames.indexOf(b.service));
  return { raw: raw as RawInventory, skipped };
}

/** The resources of a raw inventory, in service order. */
export function inventoryFrom(
  raw: RawInventory,
  skipped: SkippedService[],
  context: Omit<ScanContext, "defaultVpcIds">,
): Inventory {
  const defaultVpcIds = new Set(
    (raw.vpc?.vpcs ?? []).flatMap((vpc) => (vpc.IsDefault && vpc.VpcId ? [vpc.VpcId] : [])),
  );
  const fullContext: ScanContext = { ...context, defaultVpcIds };
  const resources: ScannedResource[] = [];
  for (const service of serviceNames) {
    const serviceRaw = raw[service];
    if (serviceRaw !== undefined) resources.push(...scannerOf(service).toResources(serviceRaw, fullContext));
  }
  return { resources, skipped };
}
