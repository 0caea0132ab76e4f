import type { Database } from "../db/index";
import type { EnvironmentRow } from "../environments/records";
import { awsAccountOf, type AwsConnections } from "../connections/aws-accounts";
import { listFinalSnapshots, type FinalSnapshot } from "../cloud/aws/final-snapshots";
import { withCloudWatch } from "./aws-telemetry";

/**
 * The final snapshots of an environment's databases and caches (issue 24), read from its AWS account by their
 * tags, so that a deleted service's stay listed; none for an environment that runs in no AWS account. AWS's
 * refusal or silence is a TelemetryUnavailable in its words, like a read of the logs.
 */
export async function finalSnapshotsOf(
  db: Database,
  environment: EnvironmentRow,
  { aws }: { aws: AwsConnections },
): Promise<FinalSnapshot[]> {
  const account = await awsAccountOf(db, environment);
  if (!account) return [];
  return withCloudWatch(
    () => aws.connectionOf(account.connection, account.organization, environment.region),
    "AWS",
    (clients) => listFinalSnapshots(clients, environment.id),
  );
}
