import type { ConnectionFieldName, ConnectionKind } from "#contract/connections";

/**
 * The seam between connections and their providers (issue 13): one Provider per kind checks credentials with the
 * provider's own SDK or HTTP API and, where the kind has them, lists repositories, tags and branches. Providers
 * never see the database: the caller unseals the secrets and hands them over, and a provider never logs them.
 */

/** A connection's values as a provider needs them: plain fields and unsealed secrets, by SPEC §3's names. */
export type Credentials = {
  id?: string;
  kind: ConnectionKind;
  method: string;
  fields: Partial<Record<ConnectionFieldName, string>>;
  secrets: Partial<Record<ConnectionFieldName, string>>;
};

export type CheckResult = {
  ok: boolean;
  /** The provider's answer in plain words: what was confirmed, or what is wrong and what to do. */
  message: string;
  /** What the provider confirmed (the account and role assumed, the organization's repositories, ...). */
  details: string[];
  /** The field to fix, when the answer names one (a wrong secret, an unknown account). */
  field?: ConnectionFieldName;
};

export type ProviderContext = {
  /** AWS_ENDPOINT_URL: moto_server in tests; unset, the SDK's real endpoints. */
  awsEndpoint?: string;
  /** What AssumeRole must present for this organization's roles. */
  awsExternalId: string;
  /** The organization's name and the app's address, for messages that say where they come from. */
  organizationName: string;
  appUrl: string;
  /** Another connection of the same organization (ECR through AWS, Dependabot through GitHub), unsealed. */
  connection: (id: string) => Promise<Credentials | undefined>;
};

export type Repository = { name: string; description: string | null; updatedAt: string | null };
export type Tag = { name: string; digest: string | null; pushedAt: string | null };
export type Branch = { name: string; commitSha: string | null };

/**
 * A listing the provider refused or could not serve; `message` is for the user (the listing routes answer 502
 * with it, as a check's failure is shown on the form).
 */
export class ProviderRequestError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ProviderRequestError";
  }
}

export type Provider = {
  /** Never throws for the provider's refusal or an unreachable host: those are a failed CheckResult. */
  check: (credentials: Credentials, context: ProviderContext) => Promise<CheckResult>;
  repositories?: (credentials: Credentials, context: ProviderContext) => Promise<Repository[]>;
  tags?: (credentials: Credentials, context: ProviderContext, repository: string) => Promise<Tag[]>;
  branches?: (credentials: Credentials, context: ProviderContext, repository: string) => Promise<Branch[]>;
  /**
   * The manifest `docker pull` would get for `repository:tag` (issue 15's deployments): its digest and the full
   * reference to pull. A refusal carries the registry's own answer (MANIFEST_UNKNOWN, UNAUTHORIZED,
   * ImageNotFoundException).
   */
  manifest?: (
    credentials: Credentials,
    context: ProviderContext,
    repository: string,
    tag: string,
  ) => Promise<PulledManifest>;
};

/**
 * `auth`: what a container engine pulls the image with (Docker's X-Registry-Auth: the registry's own username and
 * password or token, and its host), absent where the registry needs none or the provider gives none yet.
 */
export type PulledManifest = {
  digest: string;
  image: string;
  auth?: { username: string; password: string; serveraddress: string };
};
