import * as z from "zod";
import { awsRegions } from "./aws-regions";
import { gcpRegions, type CloudProvider } from "./cloud-providers";
import type { FeatureFlagName } from "./feature-flags";
import { requiredText } from "./required-text";
import { messages, patterns, servicePatterns } from "./validation";

/**
 * Connections (issue 13, SPEC §3): the organization's cloud accounts, container registries, GitHub, chat,
 * observability and ticket tools. One catalogue describes each kind's fields for the forms and the platform's
 * checks; secret fields are sealed at rest and never leave the platform.
 */

// ---------------------------------------------------------------------------------------------------------------
// Categories and kinds

/** The create pages' categories (SPEC §2.2: /settings/connections/create/{category}). */
export const connectionCategories = [
  "cloud-provider",
  "container-registry",
  "github-app",
  "communication-platform",
  "observability",
  "ticket-manager",
] as const;
export type ConnectionCategory = (typeof connectionCategories)[number];
export const connectionCategorySchema = z.enum(connectionCategories);

export const connectionCategoryTitles: Record<ConnectionCategory, string> = {
  "cloud-provider": "Cloud accounts",
  "container-registry": "Container registries",
  "github-app": "GitHub",
  "communication-platform": "Slack and Teams",
  observability: "Observability",
  "ticket-manager": "Ticket manager",
};

export const connectionCategoryDescriptions: Record<ConnectionCategory, string> = {
  "cloud-provider": "The AWS, GCP or Azure accounts your environments run in.",
  "container-registry": "Where your application images come from.",
  "github-app": "Repositories to build applications from, and Dependabot alerts.",
  "communication-platform": "Where deployment and clone notifications are posted.",
  observability: "Where your environments' metrics are forwarded.",
  "ticket-manager": "Where tickets for failed deployments are opened.",
};

/** SPEC §3's kinds. GITHUB is the GitHub Container Registry (ghcr.io); VERSION_CONTROL_TYPE_GITHUB is repositories. */
export const connectionKinds = [
  "AWS",
  "GCP",
  "AZURE",
  "CONTAINER_HOST",
  "DOCKER",
  "GITHUB",
  "AWS_ECR",
  "GCP_ARTIFACT_REGISTRY",
  "VERSION_CONTROL_TYPE_GITHUB",
  "VULNERABILITY_SCANNER_TYPE_DEPENDABOT",
  "COMMUNICATION_PLATFORM_TYPE_SLACK",
  "COMMUNICATION_PLATFORM_TYPE_TEAMS",
  "OBSERVABILITY_PROVIDER_TYPE_DATADOG",
  "OBSERVABILITY_PROVIDER_TYPE_MIDDLEWARE",
  "TICKET_MANAGER_TYPE_JIRA",
] as const;
export type ConnectionKind = (typeof connectionKinds)[number];
export const connectionKindSchema = z.enum(connectionKinds, {
  error: (issue) =>
    issue.input === undefined ? "Kind is a required field" : "Kind must be one of the connection kinds",
});

/** The URL segment of a kind in /settings/connections/{view|edit}/{kind}/{id}. */
export const connectionKindSlugs: Record<ConnectionKind, string> = {
  AWS: "aws",
  GCP: "gcp",
  AZURE: "azure",
  CONTAINER_HOST: "container-host",
  DOCKER: "docker",
  GITHUB: "github-container-registry",
  AWS_ECR: "aws-ecr",
  GCP_ARTIFACT_REGISTRY: "gcp-artifact-registry",
  VERSION_CONTROL_TYPE_GITHUB: "github",
  VULNERABILITY_SCANNER_TYPE_DEPENDABOT: "dependabot",
  COMMUNICATION_PLATFORM_TYPE_SLACK: "slack",
  COMMUNICATION_PLATFORM_TYPE_TEAMS: "teams",
  OBSERVABILITY_PROVIDER_TYPE_DATADOG: "datadog",
  OBSERVABILITY_PROVIDER_TYPE_MIDDLEWARE: "middleware",
  TICKET_MANAGER_TYPE_JIRA: "jira",
};
export function connectionKindFromSlug(slug: string): ConnectionKind | undefined {
  return connectionKinds.find((kind) => connectionKindSlugs[kind] === slug);
}

/** A single field of a connection's form: SPEC §3's credential field names, plus the few a kind also needs. */
export type ConnectionFieldName =
  | "ACCESS_KEY_ID"
  | "CLIENT_ID"
  | "CLIENT_SECRET"
  | "ORGANIZATION"
  | "ROLE_ARN"
  | "SECRET_ACCESS_KEY"
  | "SUBSCRIPTION_ID"
  | "TENANT_ID"
  | "TOKEN"
  | "USERNAME"
  | "BASE_URL"
  | "ACCOUNT_ID"
  | "GCP_CLIENT_EMAIL"
  | "PROJECT_ID"
  | "GCP_ARTIFACT_REGISTRY_LOCATION"
  | "GCP_ARTIFACT_REGISTRY_REPOSITORY"
  | "DD_URL"
  | "DD_API_KEY"
  | "MW_URL"
  | "MW_API_KEY"
  | "MW_PROJECT_ALIAS"
  // Beyond SPEC §3's list: what the kinds below need besides it.
  | "REGION"
  | "GCP_SERVICE_ACCOUNT_KEY"
  | "WEBHOOK_URL"
  | "CHANNEL"
  | "PROJECT_KEY"
  | "AWS_CONNECTION_ID"
  | "GITHUB_CONNECTION_ID"
  | "DOCKER_HOST"
  | "TLS_CA_CERT"
  | "TLS_CLIENT_CERT"
  | "TLS_CLIENT_KEY";

type Pattern = { regex: RegExp; message: string };

export type ConnectionField = {
  name: ConnectionFieldName;
  label: string;
  /** Sealed at rest, never returned: the API says it is set (with its last four characters to admins). */
  secret?: boolean;
  /** Empty is allowed; `defaultValue` (when any) is used instead. */
  optional?: boolean;
  defaultValue?: string;
  pattern?: Pattern;
  max?: number;
  /** A choice from a catalogue rather than free text. */
  options?: "aws-regions" | "gcp-regions" | "datadog-sites" | "aws-connections" | "github-connections";
  /** Several lines (a JSON key). */
  multiline?: boolean;
  placeholder?: string;
  description?: string;
};

/** One way to authenticate a kind (AWS: a role or keys; Slack: a webhook or a bot token). */
export type ConnectionMethod = { id: string; label: string; fields: ConnectionField[] };

export type ConnectionKindDefinition = {
  kind: ConnectionKind;
  category: ConnectionCategory;
  label: string;
  description: string;
  /** Offered only while this flag is on (SPEC §6). */
  flag?: FeatureFlagName;
  methods: ConnectionMethod[];
};

// ---------------------------------------------------------------------------------------------------------------
// Field patterns (SPEC §5 where it names one; the provider's own rule otherwise)

/** http(s) only: every connection URL is called by the platform. SPEC §5's message. */
const httpUrl: Pattern = { regex: /^https?:\/\/[^\s"']+$/, message: patterns.url.message };
const uuid: Pattern = {
  regex: /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i,
  message: "Value must be a UUID (e.g. 00000000-0000-0000-0000-000000000000).",
};
const connectionIdPattern: Pattern = { regex: uuid.regex, message: "Choose a connection." };

export const connectionPatterns = {
  accountId: servicePatterns.accountIdWithDashes,
  roleArn: {
    regex: /^arn:aws[a-z-]*:iam::\d{12}:role\/[\w+=,.@/-]{1,512}$/,
    message: "Value must be an IAM role ARN (e.g. arn:aws:iam::123456789012:role/CloudConsole).",
  },
  accessKeyId: {
    regex: /^[A-Z0-9]{16,128}$/,
    message: "Value must be an AWS access key id: 16 to 128 capital letters and digits.",
  },
  gcpProjectId: {
    regex: /^[a-z][a-z0-9-]{4,28}[a-z0-9]$/,
    message:
      "Value must be a GCP project id: 6 to 30 lowercase letters, digits and hyphens, beginning with a letter.",
  },
  email: { regex: servicePatterns.email.regex, message: `Value ${messages.email}` },
  githubOrganization: {
    regex: /^[A-Za-z0-9](?:[A-Za-z0-9]|-(?=[A-Za-z0-9])){0,38}$/,
    message:
      "Value must be a GitHub organization: up to 39 letters, digits and single hyphens, not beginning with a hyphen.",
  },
  artifactRepository: servicePatterns.lowercaseNoConsecutiveHyphens,
  slackChannel: {
    regex: /^[#A-Za-z0-9][A-Za-z0-9._/#-]{0,199}$/,
    message: "Value must be a channel name or id (e.g. #deployments or C0123456789).",
  },
  jiraProjectKey: {
    regex: /^[A-Z][A-Z0-9_]{1,9}$/,
    message: "Value must be a Jira project key: 2 to 10 capital letters, digits and underscores.",
  },
  middlewareAlias: servicePatterns.identifier,
  /** As Docker's CLI reads DOCKER_HOST: a unix socket's absolute path, a plain tcp host, or an https one. */
  dockerHost: {
    regex: /^(?:unix:\/\/\/[^\s?#]+|tcp:\/\/[^\s/?#@]+|https:\/\/[^\s/?#@]+)\/?$/,
    message:
      "Value must be a socket (unix:///var/run/docker.sock) or a host's URL (tcp://host:2375, https://host:2376).",
  },
  /** A Docker host's TLS port (Docker's own convention: tcp:// with TLS on, or https://). */
  dockerTlsHost: {
    regex: /^(?:tcp|https):\/\/[^\s/?#@]+\/?$/,
    message: "Value must be a host's URL (tcp://host:2376, https://host:2376).",
  },
  /** PEM text: Docker's ca.pem, cert.pem and key.pem as `dockerd --tlsverify` hands them out. */
  pemCertificate: {
    regex: /^-----BEGIN CERTIFICATE-----[\s\S]+-----END CERTIFICATE-----\s*$/,
    message: "Value must be a PEM certificate (-----BEGIN CERTIFICATE----- …).",
  },
  pemPrivateKey: {
    regex: /^-----BEGIN (?:RSA |EC )?PRIVATE KEY-----[\s\S]+-----END (?:RSA |EC )?PRIVATE KEY-----\s*$/,
    message: "Value must be a PEM private key (-----BEGIN PRIVATE KEY----- …).",
  },
  httpUrl,
  uuid,
} as const;

// ---------------------------------------------------------------------------------------------------------------
// The catalogue

const accountId: ConnectionField = {
  name: "ACCOUNT_ID",
  label: "AWS account id",
  pattern: connectionPatterns.accountId,
  placeholder: "1234-5678-9012",
};
const awsRegion: ConnectionField = {
  name: "REGION",
  label: "Region",
  options: "aws-regions",
  defaultValue: "us-east-1",
};
const accessKeyId: ConnectionField = {
  name: "ACCESS_KEY_ID",
  label: "Access key id",
  pattern: connectionPatterns.accessKeyId,
};
const secretAccessKey: ConnectionField = {
  name: "SECRET_ACCESS_KEY",
  label: "Secret access key",
  secret: true,
  max: 256,
};
const gcpClientEmail: ConnectionField = {
  name: "GCP_CLIENT_EMAIL",
  label: "Service account e-mail",
  pattern: connectionPatterns.email,
  placeholder: "deployer@my-project.iam.gserviceaccount.com",
};
const gcpServiceAccountKey: ConnectionField = {
  name: "GCP_SERVICE_ACCOUNT_KEY",
  label: "Service account key (JSON)",
  secret: true,
  multiline: true,
  max: 10_000,
  description: "The JSON key file downloaded from IAM → Service accounts → Keys.",
};
const gcpProjectId: ConnectionField = {
  name: "PROJECT_ID",
  label: "Project id",
  pattern: connectionPatterns.gcpProjectId,
};
const registryCredentials = (defaultBaseUrl: string): ConnectionField[] => [
  { name: "BASE_URL", label: "Registry URL", pattern: httpUrl, optional: true, defaultValue: defaultBaseUrl },
  { name: "USERNAME", label: "Username", max: 255 },
  { name: "TOKEN", label: "Access token", secret: true, max: 1024 },
];
const webhookUrl = (example: string): ConnectionField => ({
  name: "WEBHOOK_URL",
  label: "Incoming webhook URL",
  secret: true,
  pattern: httpUrl,
  max: 2048,
  placeholder: example,
});

export const connectionKindDefinitions: Record<ConnectionKind, ConnectionKindDefinition> = {
  AWS: {
    kind: "AWS",
    category: "cloud-provider",
    label: "Amazon Web Services",
    description: "Runs environments in your AWS account.",
    methods: [
      {
        id: "role",
        label: "Assume a role (recommended)",
        fields: [
          accountId,
          {
            name: "ROLE_ARN",
            label: "Role ARN",
            pattern: connectionPatterns.roleArn,
            description:
              "The role created by the CloudFormation stack below; it trusts us only with your external id.",
          },
          awsRegion,
        ],
      },
      { id: "keys", label: "Access keys", fields: [accountId, accessKeyId, secretAccessKey, awsRegion] },
    ],
  },
  GCP: {
    kind: "GCP",
    category: "cloud-provider",
    label: "Google Cloud",
    description: "Runs environments in your GCP project.",
    methods: [
      {
        id: "service-account",
        label: "Service account",
        fields: [gcpProjectId, gcpClientEmail, gcpServiceAccountKey],
      },
    ],
  },
  AZURE: {
    kind: "AZURE",
    category: "cloud-provider",
    label: "Microsoft Azure",
    description: "Runs environments in your Azure subscription.",
    flag: "azure-connection",
    methods: [
      {
        id: "service-principal",
        label: "Service principal",
        fields: [
          { name: "TENANT_ID", label: "Directory (tenant) id", pattern: uuid },
          { name: "CLIENT_ID", label: "Application (client) id", pattern: uuid },
          { name: "CLIENT_SECRET", label: "Client secret", secret: true, max: 1024 },
          { name: "SUBSCRIPTION_ID", label: "Subscription id", pattern: uuid },
          {
            name: "BASE_URL",
            label: "Authority host",
            pattern: httpUrl,
            optional: true,
            defaultValue: "https://login.microsoftonline.com",
          },
        ],
      },
    ],
  },
  CONTAINER_HOST: {
    kind: "CONTAINER_HOST",
    category: "cloud-provider",
    label: "This machine / a Docker host",
    description:
      "Runs environments as containers on a Docker or Podman engine: this machine's, or a server's.",
    methods: [
      {
        id: "docker-host",
        label: "Socket or URL",
        fields: [
          {
            name: "DOCKER_HOST",
            label: "Socket or URL",
            pattern: connectionPatterns.dockerHost,
            max: 1024,
            placeholder: "unix:///run/podman/podman.sock",
            description:
              "The engine's socket on this machine (unix:///var/run/docker.sock, unix:///run/podman/podman.sock) " +
              "or a Docker host's address (tcp://host:2375, https://host:2376). Checked with a version call.",
          },
        ],
      },
      {
        // A Docker daemon run with --tlsverify answers only clients holding a certificate its CA signed.
        id: "docker-tls",
        label: "URL with TLS certificates",
        fields: [
          {
            name: "DOCKER_HOST",
            label: "Host URL",
            pattern: connectionPatterns.dockerTlsHost,
            max: 1024,
            placeholder: "tcp://docker.example.com:2376",
            description:
              "The Docker host's TLS address (dockerd --tlsverify listens on port 2376). Checked with a version call.",
          },
          {
            name: "TLS_CA_CERT",
            label: "CA certificate (ca.pem)",
            pattern: connectionPatterns.pemCertificate,
            multiline: true,
            optional: true,
            max: 20_000,
            description:
              "The CA that signed the host's certificate. Empty: the host's certificate must be public.",
          },
          {
            name: "TLS_CLIENT_CERT",
            label: "Client certificate (cert.pem)",
            pattern: connectionPatterns.pemCertificate,
            multiline: true,
            max: 20_000,
          },
          {
            name: "TLS_CLIENT_KEY",
            label: "Client key (key.pem)",
            pattern: connectionPatterns.pemPrivateKey,
            secret: true,
            multiline: true,
            max: 20_000,
          },
        ],
      },
    ],
  },
  DOCKER: {
    kind: "DOCKER",
    category: "container-registry",
    label: "Docker registry",
    description: "Docker Hub or any registry speaking the Docker Registry HTTP API v2.",
    methods: [
      {
        id: "token",
        label: "Username and token",
        fields: registryCredentials("https://registry-1.docker.io"),
      },
    ],
  },
  GITHUB: {
    kind: "GITHUB",
    category: "container-registry",
    label: "GitHub Container Registry",
    description: "Images in ghcr.io, pulled with a personal access token (read:packages).",
    methods: [{ id: "token", label: "Username and token", fields: registryCredentials("https://ghcr.io") }],
  },
  AWS_ECR: {
    kind: "AWS_ECR",
    category: "container-registry",
    label: "Amazon ECR",
    description: "Images in an Elastic Container Registry.",
    methods: [
      {
        id: "connection",
        label: "Through an AWS connection",
        fields: [
          {
            name: "AWS_CONNECTION_ID",
            label: "AWS connection",
            options: "aws-connections",
            pattern: connectionIdPattern,
          },
          awsRegion,
        ],
      },
      { id: "keys", label: "Access keys", fields: [accountId, accessKeyId, secretAccessKey, awsRegion] },
    ],
  },
  GCP_ARTIFACT_REGISTRY: {
    kind: "GCP_ARTIFACT_REGISTRY",
    category: "container-registry",
    label: "Google Artifact Registry",
    description: "Images in a Docker-format Artifact Registry repository.",
    methods: [
      {
        id: "service-account",
        label: "Service account",
        fields: [
          gcpProjectId,
          { name: "GCP_ARTIFACT_REGISTRY_LOCATION", label: "Location", options: "gcp-regions" },
          {
            name: "GCP_ARTIFACT_REGISTRY_REPOSITORY",
            label: "Repository",
            pattern: connectionPatterns.artifactRepository,
            max: 63,
          },
          gcpClientEmail,
          gcpServiceAccountKey,
          {
            name: "BASE_URL",
            label: "API URL",
            pattern: httpUrl,
            optional: true,
            defaultValue: "https://artifactregistry.googleapis.com",
          },
        ],
      },
    ],
  },
  VERSION_CONTROL_TYPE_GITHUB: {
    kind: "VERSION_CONTROL_TYPE_GITHUB",
    category: "github-app",
    label: "GitHub",
    description: "An organization's repositories and branches, to build applications from.",
    flag: "version-control-connection",
    methods: [
      {
        id: "token",
        label: "Organization and token",
        fields: [
          { name: "ORGANIZATION", label: "Organization", pattern: connectionPatterns.githubOrganization },
          {
            name: "TOKEN",
            label: "Access token",
            secret: true,
            max: 1024,
            description: "A fine-grained token with read access to the organization's repositories.",
          },
          {
            name: "BASE_URL",
            label: "API URL",
            pattern: httpUrl,
            optional: true,
            defaultValue: "https://api.github.com",
            description: "For GitHub Enterprise Server: https://{host}/api/v3",
          },
        ],
      },
    ],
  },
  VULNERABILITY_SCANNER_TYPE_DEPENDABOT: {
    kind: "VULNERABILITY_SCANNER_TYPE_DEPENDABOT",
    category: "github-app",
    label: "Dependabot",
    description: "Dependabot alerts of the organization's repositories, through a GitHub connection.",
    flag: "version-control-connection",
    methods: [
      {
        id: "github",
        label: "Through a GitHub connection",
        fields: [
          {
            name: "GITHUB_CONNECTION_ID",
            label: "GitHub connection",
            options: "github-connections",
            pattern: connectionIdPattern,
          },
        ],
      },
    ],
  },
  COMMUNICATION_PLATFORM_TYPE_SLACK: {
    kind: "COMMUNICATION_PLATFORM_TYPE_SLACK",
    category: "communication-platform",
    label: "Slack",
    description: "Posts deployment and clone notifications to a channel.",
    flag: "notification-connections",
    methods: [
      {
        id: "webhook",
        label: "Incoming webhook",
        fields: [webhookUrl("https://hooks.slack.com/services/T000/B000/XXXX")],
      },
      {
        id: "token",
        label: "Bot token and channel",
        fields: [
          { name: "TOKEN", label: "Bot token", secret: true, max: 1024, placeholder: "xoxb-…" },
          { name: "CHANNEL", label: "Channel", pattern: connectionPatterns.slackChannel },
          {
            name: "BASE_URL",
            label: "API URL",
            pattern: httpUrl,
            optional: true,
            defaultValue: "https://slack.com/api",
          },
        ],
      },
    ],
  },
  COMMUNICATION_PLATFORM_TYPE_TEAMS: {
    kind: "COMMUNICATION_PLATFORM_TYPE_TEAMS",
    category: "communication-platform",
    label: "Microsoft Teams",
    description: "Posts deployment and clone notifications to a channel.",
    flag: "notification-connections",
    methods: [
      {
        id: "webhook",
        label: "Incoming webhook",
        fields: [webhookUrl("https://acme.webhook.office.com/webhookb2/…")],
      },
      {
        id: "token",
        label: "Graph token and channel",
        fields: [
          { name: "TOKEN", label: "Access token", secret: true, max: 4096 },
          {
            name: "CHANNEL",
            label: "Channel",
            pattern: {
              regex: /^[^\s/]+\/[^\s/]+$/,
              message: "Value must be the team id and the channel id, separated by a slash.",
            },
            placeholder: "{team id}/{channel id}",
          },
          {
            name: "BASE_URL",
            label: "API URL",
            pattern: httpUrl,
            optional: true,
            defaultValue: "https://graph.microsoft.com",
          },
        ],
      },
    ],
  },
  OBSERVABILITY_PROVIDER_TYPE_DATADOG: {
    kind: "OBSERVABILITY_PROVIDER_TYPE_DATADOG",
    category: "observability",
    label: "Datadog",
    description: "Receives the metrics of the environments linked to it.",
    methods: [
      {
        id: "api-key",
        label: "API key",
        fields: [
          {
            name: "DD_URL",
            label: "Datadog site",
            pattern: httpUrl,
            options: "datadog-sites",
            defaultValue: "https://api.datadoghq.com",
          },
          { name: "DD_API_KEY", label: "API key", secret: true, max: 256 },
        ],
      },
    ],
  },
  OBSERVABILITY_PROVIDER_TYPE_MIDDLEWARE: {
    kind: "OBSERVABILITY_PROVIDER_TYPE_MIDDLEWARE",
    category: "observability",
    label: "Middleware",
    description: "Receives the metrics of the environments linked to it.",
    methods: [
      {
        id: "api-key",
        label: "API key",
        fields: [
          {
            name: "MW_URL",
            label: "Middleware URL",
            pattern: httpUrl,
            placeholder: "https://{uid}.middleware.io",
          },
          { name: "MW_API_KEY", label: "API key", secret: true, max: 256 },
          {
            name: "MW_PROJECT_ALIAS",
            label: "Project alias",
            pattern: connectionPatterns.middlewareAlias,
            max: 128,
          },
        ],
      },
    ],
  },
  TICKET_MANAGER_TYPE_JIRA: {
    kind: "TICKET_MANAGER_TYPE_JIRA",
    category: "ticket-manager",
    label: "Jira",
    description: "Opens tickets for failed deployments.",
    methods: [
      {
        id: "api-token",
        label: "E-mail and API token",
        fields: [
          {
            name: "BASE_URL",
            label: "Site URL",
            pattern: httpUrl,
            placeholder: "https://acme.atlassian.net",
          },
          { name: "USERNAME", label: "E-mail", pattern: connectionPatterns.email },
          { name: "TOKEN", label: "API token", secret: true, max: 1024 },
          { name: "PROJECT_KEY", label: "Project key", pattern: connectionPatterns.jiraProjectKey },
        ],
      },
    ],
  },
};

/** Datadog's sites, for DD_URL's choice. */
export const datadogSites = [
  { value: "https://api.datadoghq.com", label: "US1 (datadoghq.com)" },
  { value: "https://api.us3.datadoghq.com", label: "US3 (us3.datadoghq.com)" },
  { value: "https://api.us5.datadoghq.com", label: "US5 (us5.datadoghq.com)" },
  { value: "https://api.datadoghq.eu", label: "EU1 (datadoghq.eu)" },
  { value: "https://api.ap1.datadoghq.com", label: "AP1 (ap1.datadoghq.com)" },
  { value: "https://api.ddog-gov.com", label: "US1-FED (ddog-gov.com)" },
] as const;

export function kindsOfCategory(category: ConnectionCategory): ConnectionKindDefinition[] {
  return connectionKinds
    .map((kind) => connectionKindDefinitions[kind])
    .filter((kind) => kind.category === category);
}

export function methodOf(kind: ConnectionKind, methodId: string): ConnectionMethod | undefined {
  return connectionKindDefinitions[kind].methods.find((method) => method.id === methodId);
}

/** The cloud account a cloud-provider kind runs environments in (environments.cloudProvider). */
export const cloudProviderOfKind: Partial<Record<ConnectionKind, CloudProvider>> = {
  AWS: "AWS",
  GCP: "GCP",
  AZURE: "AZURE",
  CONTAINER_HOST: "CONTAINERS",
};

// ---------------------------------------------------------------------------------------------------------------
// Requests

export const CONNECTION_NAME_MAX = 64;
export const connectionNameSchema = requiredText("Name", { max: CONNECTION_NAME_MAX }).regex(
  servicePatterns.lettersDigitsHyphenSpaces.regex,
  servicePatterns.lettersDigitsHyphenSpaces.message,
);

const fieldValuesSchema = z.record(z.string(), z.string().max(10_000, `Value ${messages.max(10_000)}`));

/**
 * Checks `fields` against the kind's method: unknown kinds, methods and fields are refused, required ones reported
 * with SPEC §5's messages, keyed `fields.NAME`. `keepSecrets` (an edit) lets a secret field stay empty: the stored
 * value is kept.
 */
function checkFields(
  value: { kind: ConnectionKind; method: string; fields: Record<string, string> },
  context: z.core.$RefinementCtx,
  { keepSecrets }: { keepSecrets: boolean },
) {
  const method = methodOf(value.kind, value.method);
  if (!method) {
    const offered = connectionKindDefinitions[value.kind].methods.map((one) => one.id).join(", ");
    context.addIssue({ code: "custom", path: ["method"], message: `Method must be one of: ${offered}` });
    return;
  }
  const known = new Set<string>(method.fields.map((field) => field.name));
  for (const name of Object.keys(value.fields)) {
    if (!known.has(name)) {
      context.addIssue({
        code: "custom",
        path: ["fields", name],
        message: `${name} is not a field of this connection`,
      });
    }
  }
  for (const field of method.fields) {
    const raw = value.fields[field.name]?.trim() ?? "";
    if (!raw) {
      if (field.optional || field.defaultValue !== undefined || (field.secret && keepSecrets)) continue;
      context.addIssue({
        code: "custom",
        path: ["fields", field.name],
        message: messages.required(field.label),
      });
      continue;
    }
    if (field.max !== undefined && raw.length > field.max) {
      context.addIssue({
        code: "custom",
        path: ["fields", field.name],
        message: `${field.label} ${messages.max(field.max)}`,
      });
    } else if (field.pattern && !field.pattern.regex.test(raw)) {
      context.addIssue({ code: "custom", path: ["fields", field.name], message: field.pattern.message });
    } else if (field.options === "aws-regions" && !awsRegions.some((region) => region.code === raw)) {
      context.addIssue({
        code: "custom",
        path: ["fields", field.name],
        message: "Choose a region from the list.",
      });
    } else if (field.options === "gcp-regions" && !gcpRegions.some((region) => region.code === raw)) {
      context.addIssue({
        code: "custom",
        path: ["fields", field.name],
        message: "Choose a location from the list.",
      });
    } else if (field.name === "GCP_SERVICE_ACCOUNT_KEY") {
      const problem = serviceAccountKeyProblem(raw);
      if (problem) context.addIssue({ code: "custom", path: ["fields", field.name], message: problem });
    }
  }
}

/** A GCP service-account key must be the JSON key file: what is wrong with `raw`, or undefined. */
export function serviceAccountKeyProblem(raw: string): string | undefined {
  let key: unknown;
  try {
    key = JSON.parse(raw);
  } catch {
    return "Value must be the JSON key file (it does not parse as JSON).";
  }
  const parsed = z
    .object({ type: z.literal("service_account"), client_email: z.string(), private_key: z.string() })
    .safeParse(key);
  return parsed.success
    ? undefined
    : 'Value must be a service account key file: a JSON object with "type": "service_account", client_email and private_key.';
}

/** Field values as the forms send them: trimmed, dashes removed from account ids, defaults filled in. */
export function normalizeConnectionFields(
  kind: ConnectionKind,
  methodId: string,
  fields: Record<string, string>,
): Record<string, string> {
  const method = methodOf(kind, methodId);
  const normalized: Record<string, string> = {};
  for (const field of method?.fields ?? []) {
    let value = fields[field.name]?.trim() ?? "";
    if (!value && field.defaultValue !== undefined && !field.secret) value = field.defaultValue;
    if (field.name === "ACCOUNT_ID") value = value.replaceAll("-", "");
    if (field.pattern === httpUrl) value = value.replace(/\/+$/, "");
    if (value) normalized[field.name] = value;
  }
  return normalized;
}

const connectionBodySchema = z.object({
  kind: connectionKindSchema,
  /** Checked with the fields (checkBody), so a wrong name does not hide the fields' errors. */
  name: z.string({ error: messages.required("Name") }),
  method: requiredText("Method", { max: 64 }),
  fields: fieldValuesSchema.default({}),
  /** false: no check at all (the connection is marked unverified). */
  verify: z.boolean().default(true),
  /**
   * When the provider refuses the check: "refuse" answers 422 and stores nothing; "save" ('Save without verifying'
   * after a refusal) stores the connection as failing, with the refused check recorded (time and message).
   */
  ifRefused: z.enum(["refuse", "save"]).default("refuse"),
});

type ConnectionBody = z.output<typeof connectionBodySchema>;

/** The name and the fields are checked together, so the answer lists every error at once. */
function checkBody(value: ConnectionBody, context: z.core.$RefinementCtx, options: { keepSecrets: boolean }) {
  const name = connectionNameSchema.safeParse(value.name);
  for (const issue of name.error?.issues ?? []) {
    context.addIssue({ code: "custom", path: ["name"], message: issue.message });
  }
  checkFields(value, context, options);
}

/** Runs checkBody unless the kind, method or fields themselves are malformed. */
const fieldsCheckable = (payload: z.core.ParsePayload) =>
  !payload.issues.some((issue) => ["kind", "method", "fields"].includes(String(issue.path?.[0])));

const normalizeBody = (value: ConnectionBody) => ({
  ...value,
  name: value.name.trim(),
  fields: normalizeConnectionFields(value.kind, value.method, value.fields),
});

/** POST connections. */
export const createConnectionSchema = connectionBodySchema
  .superRefine((value, context) => checkBody(value, context, { keepSecrets: false }), {
    when: fieldsCheckable,
  })
  .transform(normalizeBody);
export type CreateConnection = z.input<typeof createConnectionSchema>;

/** PUT connections/{id}: the kind stays; a secret field left empty keeps its stored value. */
export const updateConnectionSchema = connectionBodySchema
  .superRefine((value, context) => checkBody(value, context, { keepSecrets: true }), {
    when: fieldsCheckable,
  })
  .transform(normalizeBody);
export type UpdateConnection = z.input<typeof updateConnectionSchema>;

export const connectionListQuerySchema = z.object({
  category: connectionCategorySchema.optional(),
  kind: connectionKindSchema.optional(),
});

/** GET connections/{id}/tags and branches: the repository as the listing named it (it may hold slashes). */
export const repositoryQuerySchema = z.object({
  repository: requiredText("repository", { max: 512 }).regex(
    /^[\w.\-/]+$/,
    "Value must be a repository name.",
  ),
});

// ---------------------------------------------------------------------------------------------------------------
// Notifications

export const notificationEvents = [
  "deployment.succeeded",
  "deployment.failed",
  "deployment.retry-limit",
  "clone.finished",
  "budget.alert",
] as const;
export type NotificationEvent = (typeof notificationEvents)[number];
export const notificationEventTitles: Record<NotificationEvent, string> = {
  "deployment.succeeded": "Deployment succeeded",
  "deployment.failed": "Deployment failed",
  "deployment.retry-limit": "Retry limit reached",
  "clone.finished": "Clone finished",
  "budget.alert": "Budget alert",
};

/** Which events a Slack or Teams connection posts, for which environments (null: every environment). */
export const notificationRulesSchema = z.object({
  events: z
    .array(z.enum(notificationEvents, { error: "Choose events from the list" }))
    .max(notificationEvents.length),
  environmentIds: z
    .array(z.uuid({ error: "Choose environments from the list" }))
    .max(500)
    .nullable(),
});
export type NotificationRules = z.infer<typeof notificationRulesSchema>;
/** A new Slack or Teams connection posts deployments everywhere: failures nobody should miss (Coolify #6911). */
export const defaultNotificationRules: NotificationRules = {
  // And successes: a first deploy that stays silent looks like a broken connection (issue 25).
  events: ["deployment.succeeded", "deployment.failed", "deployment.retry-limit"],
  environmentIds: null,
};

export const deliveryStatuses = ["pending", "delivered", "failed"] as const;
export type DeliveryStatus = (typeof deliveryStatuses)[number];
/** Attempts of a delivery before it is failed; the waits between them double from 30 s. */
export const MAX_DELIVERY_ATTEMPTS = 6;

export const deliveryAttemptSchema = z.object({
  at: z.string(),
  ok: z.boolean(),
  /** The provider's answer in plain words (e.g. "Slack answered 404: no_service"). */
  message: z.string(),
});
export const deliverySchema = z.object({
  id: z.string(),
  event: z.enum(notificationEvents),
  /** One line: what the message says. */
  summary: z.string(),
  environmentId: z.string().nullable(),
  status: z.enum(deliveryStatuses),
  attempts: z.array(deliveryAttemptSchema),
  nextAttemptAt: z.string().nullable(),
  createdAt: z.string(),
});
export type Delivery = z.infer<typeof deliverySchema>;
export const deliveryListSchema = z.object({ deliveries: z.array(deliverySchema) });

// ---------------------------------------------------------------------------------------------------------------
// Responses

export const connectionStatuses = ["VERIFIED", "FAILING", "UNVERIFIED"] as const;
export type ConnectionStatus = (typeof connectionStatuses)[number];
export const connectionStatusLabels: Record<ConnectionStatus, string> = {
  VERIFIED: "Verified",
  FAILING: "Failing",
  UNVERIFIED: "Unverified",
};

/** One check of the credentials against the provider: on save, on 'Test connection'. */
export const connectionCheckSchema = z.object({
  id: z.string(),
  at: z.string(),
  ok: z.boolean(),
  /** The provider's answer in plain words. */
  message: z.string(),
  /** What the provider confirmed (the account and role assumed, the repositories seen, ...). */
  details: z.array(z.string()),
  /** Who ran it; null for the platform's own checks. */
  actor: z.object({ id: z.string(), name: z.string() }).nullable(),
});
export type ConnectionCheck = z.infer<typeof connectionCheckSchema>;
export const connectionCheckListSchema = z.object({ checks: z.array(connectionCheckSchema) });

/** What relies on a connection; deleting it answers 409 while anything does. */
export const connectionUsageSchema = z.object({
  /** notifications: a Slack or Teams connection's own rules (an environment, or every one: id is the connection's). */
  type: z.enum(["environment", "observability", "connection", "notifications"]),
  id: z.string(),
  /** What to call it: an environment's name, a connection's name. */
  name: z.string(),
  /** The environment it belongs to, when it belongs to one. */
  environmentName: z.string().nullable(),
});
export type ConnectionUsage = z.infer<typeof connectionUsageSchema>;

/** A secret field: set, and its last four characters to those who manage connections. */
export const secretFieldSchema = z.object({ set: z.literal(true), lastFour: z.string().nullable() });

export const connectionSchema = z.object({
  id: z.string(),
  kind: connectionKindSchema,
  category: connectionCategorySchema,
  name: z.string(),
  method: z.string(),
  /** Plain fields with their values. */
  fields: z.record(z.string(), z.string()),
  /** Secret fields: never their values. */
  secrets: z.record(z.string(), secretFieldSchema),
  status: z.enum(connectionStatuses),
  lastCheck: connectionCheckSchema.nullable(),
  usage: z.array(connectionUsageSchema),
  /** Slack and Teams only. */
  notifications: notificationRulesSchema.nullable(),
  createdBy: z.object({ id: z.string(), name: z.string() }).nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Connection = z.infer<typeof connectionSchema>;
export const connectionListSchema = z.object({ connections: z.array(connectionSchema) });
export const connectionResponseSchema = z.object({ connection: connectionSchema });
/** POST connections/{id}/checks. */
export const connectionCheckResponseSchema = z.object({
  connection: connectionSchema,
  check: connectionCheckSchema,
});

/**
 * 422 CONNECTION_CHECK_FAILED on a save with verification: nothing is stored; the body's message is the provider's
 * answer, `check` says more, `fieldErrors` points at the field to fix when the answer names one.
 */
export const CONNECTION_CHECK_FAILED = "CONNECTION_CHECK_FAILED";

/** 503 on the AWS role setup: the operator has not given the platform an AWS identity, so only access keys work. */
export const AWS_ROLE_ACCESS_NOT_SET_UP = "AWS_ROLE_ACCESS_NOT_SET_UP";

/**
 * The AWS role flow: what the CloudFormation stack of the deploy role needs from us (decision 048; the Terraform
 * tool's read-only role is another template).
 */
export const awsRoleSetupSchema = z.object({
  /** Ties the role to this organization: AssumeRole must present it. */
  externalId: z.string(),
  /** The account the platform runs in, which the role trusts. */
  trustedAccountId: z.string(),
  /** The CloudFormation console's quick-create link with the template and its parameters. */
  launchStackUrl: z.string(),
  /** The template itself, to download or deploy by other means. */
  templateUrl: z.string(),
});

export const repositoryListSchema = z.object({
  repositories: z.array(
    z.object({ name: z.string(), description: z.string().nullable(), updatedAt: z.string().nullable() }),
  ),
});
export const tagListSchema = z.object({
  tags: z.array(
    z.object({ name: z.string(), digest: z.string().nullable(), pushedAt: z.string().nullable() }),
  ),
});
export const branchListSchema = z.object({
  branches: z.array(z.object({ name: z.string(), commitSha: z.string().nullable() })),
});

/** POST infrastructure/{id}/tickets: a Jira issue for the service's failed deployment. */
export const createTicketSchema = z.object({
  connectionId: z.uuid({ error: "Choose a Jira connection" }),
});
export const ticketResponseSchema = z.object({ ticket: z.object({ key: z.string(), url: z.string() }) });

// ---------------------------------------------------------------------------------------------------------------
// Paths

const organization = (tenantId: string) => `/v2/organizations/${encodeURIComponent(tenantId)}`;
const query = (params: Record<string, string | undefined>) => {
  const defined = Object.entries(params).filter((entry): entry is [string, string] => entry[1] !== undefined);
  return defined.length ? `?${new URLSearchParams(defined)}` : "";
};

export const connectionPaths = {
  /** GET (?category=, ?kind=), POST createConnectionSchema. */
  list: (t: string, filter: { category?: ConnectionCategory; kind?: ConnectionKind } = {}) =>
    `${organization(t)}/connections${query(filter)}`,
  /** GET, PUT updateConnectionSchema, DELETE (409 while in use). */
  one: (t: string, id: string) => `${organization(t)}/connections/${encodeURIComponent(id)}`,
  /** GET the history of checks; POST runs 'Test connection'. */
  checks: (t: string, id: string) => `${organization(t)}/connections/${encodeURIComponent(id)}/checks`,
  /** GET the notifications posted through a Slack or Teams connection, with their attempts. */
  deliveries: (t: string, id: string) =>
    `${organization(t)}/connections/${encodeURIComponent(id)}/deliveries`,
  /** PUT notificationRulesSchema. */
  notifications: (t: string, id: string) =>
    `${organization(t)}/connections/${encodeURIComponent(id)}/notifications`,
  /** GET a registry's repositories or a GitHub organization's repositories. */
  repositories: (t: string, id: string) =>
    `${organization(t)}/connections/${encodeURIComponent(id)}/repositories`,
  /** GET a registry repository's tags. */
  tags: (t: string, id: string, repository: string) =>
    `${organization(t)}/connections/${encodeURIComponent(id)}/tags${query({ repository })}`,
  /** GET a GitHub repository's branches. */
  branches: (t: string, id: string, repository: string) =>
    `${organization(t)}/connections/${encodeURIComponent(id)}/branches${query({ repository })}`,
  /** GET the AWS role flow's external id and CloudFormation link. */
  awsRoleSetup: (t: string) => `${organization(t)}/connections/aws/role-setup`,
  /** POST createTicketSchema: a Jira issue for a service's failed deployment. */
  tickets: (t: string, w: string, serviceId: string) =>
    `${organization(t)}/environments/${encodeURIComponent(w)}/infrastructure/${encodeURIComponent(serviceId)}/tickets`,
};

/** The app's pages (SPEC §2.2 Connections). */
export const connectionPages = {
  index: "/settings/connections",
  list: "/settings/connections/list",
  create: (category: ConnectionCategory) => `/settings/connections/create/${category}`,
  view: (kind: ConnectionKind, id: string) => `/settings/connections/view/${connectionKindSlugs[kind]}/${id}`,
  edit: (kind: ConnectionKind, id: string) => `/settings/connections/edit/${connectionKindSlugs[kind]}/${id}`,
};
