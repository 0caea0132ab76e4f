import type { ServiceUnit } from "#contract/services";
import type {
  ChangePlan,
  DriverResource,
  NewLogLine,
  Observation,
  TlsCertificate,
  VariableResolution,
} from "../driver";
import type { AwsClients } from "./clients";

/**
 * What one service type becomes in AWS (issue 14): a provisioner converges the cloud towards the service's
 * configuration in small idempotent steps. The engine calls `apply` (or `destroy`) again and again, outside any
 * database transaction, persisting `state` after each call, until it answers `done`. A step must be safe to repeat
 * after a crash: it finds what an earlier attempt created by its tags (or a client token) before creating
 * anything, and records each id or ARN in `state` as soon as the cloud returns it.
 */

/** Tags on everything the platform creates, so a repeated step finds it and a teardown leaves nothing behind. */
export const TAG_ORGANIZATION = "cloud-console:organization";
export const TAG_ENVIRONMENT = "cloud-console:environment";
export const TAG_SERVICE = "cloud-console:service";

export type ProvisionContext = {
  resource: DriverResource;
  /** The organization id, environment id and service id, as tags (TAG_*), plus Name. */
  tags: Record<string, string>;
  /** What earlier steps recorded: ids, ARNs, names, the phase reached. Strings only (persisted as JSON). */
  state: Readonly<Record<string, string>>;
  /** The environment's network (its provisioner's outputs: vpcId, subnet ids, security group), for types inside it. */
  network: Readonly<Record<string, string>> | null;
  aws: AwsClients;
  /** A deployment log line (shown in the service's logs tab); never a secret. */
  log: (level: NewLogLine["level"], message: string) => void;
  /** An application's TLS certificate, when its domain names one (DeployContext.certificate). */
  certificate?: TlsCertificate;
  /** The uploaded archive of a serverless service, when it has one. */
  archive?: () => Promise<Uint8Array>;
  /** An application's variables, resolved when asked (DeployContext.variables, decision 074). */
  variables?: () => Promise<VariableResolution>;
  now: Date;
};

export type ApplyResult =
  /** Not there yet: call again after `waitMs` with the merged state. `progress` is shown as the phase. */
  | { done: false; state: Record<string, string>; waitMs: number; progress: string }
  | {
      done: true;
      state: Record<string, string>;
      /** Where clients reach it (from the real describe call), or null. */
      endpoint: string | null;
      /** Secret attributes by name (the RDS password, a connection string), sealed by the engine. */
      secrets: Record<string, string>;
      /** Plain outputs other services use (a network's vpcId and subnets). */
      outputs: Record<string, string>;
      /** What the service still waits for from the user (a certificate's DNS records), shown with its status. */
      detail?: string;
    };

export type DestroyResult =
  | { done: false; state: Record<string, string>; waitMs: number; progress: string }
  | { done: true };

export interface Provisioner {
  /**
   * The names of the secret attributes `apply` answers for `resource` when done (what GET attributes lists and
   * reveals): exactly those, each with a value.
   */
  secretAttributeNames(resource: DriverResource): readonly string[];
  apply(context: ProvisionContext): Promise<ApplyResult>;
  /** Reverse order; tolerates what is already gone. */
  destroy(context: ProvisionContext): Promise<DestroyResult>;
  /** Config paths (as in the history diff, e.g. `config.storageGb`) that change in place or force a replacement. */
  plan(before: DriverResource, after: DriverResource): ChangePlan;
  observe(context: ProvisionContext): Promise<Observation>;
  /**
   * The units the service runs now as AWS reports them (`serviceUnitLabels`: ECS tasks, RDS instances, cache
   * nodes, EKS nodes); absent for a type that runs none a user could see.
   */
  units?(context: ProvisionContext): Promise<ServiceUnit[]>;
}
