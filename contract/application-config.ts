import * as z from "zod";
import { environmentVariableNameSchema } from "./environments";
import { requiredText } from "./required-text";
import { messages, patterns } from "./validation";

/**
 * An application's configuration (issue 15): where its image comes from (`source`) and how it runs. The services
 * pages import this module through contract/services.ts, so it holds no YAML parser: the Helm values' syntax is
 * checked by contract/applications.ts's applicationConfigSchema, which the create form and the platform use.
 */

const int = (label: string, min: number, max: number) =>
  z
    .number({ error: messages.required(label) })
    .int(`${label} ${messages.integer}`)
    .min(min, `${label} must be between ${min} and ${max}`)
    .max(max, `${label} must be between ${min} and ${max}`);

const choice = <const T extends readonly [string, ...string[]]>(label: string, values: T) =>
  z.enum(values, { error: `${label} must be one of: ${values.join(", ")}` });

/** An id chosen from a list the platform gave (a connection, a chart repository). */
const chosenId = (message: string) => z.string({ error: message }).trim().pipe(z.guid(message));

/**
 * A container image reference as `docker pull` takes it: [registry[:port]/]name[:tag][@sha256:digest], the name's
 * components in the distribution spec's grammar (lowercase letters, digits, separators).
 */
export const IMAGE_REFERENCE_PATTERN =
  /^(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*(?::\d{1,5})?\/)?[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*(?:\/[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*)*(?::[A-Za-z0-9_][A-Za-z0-9_.-]{0,127})?(?:@sha256:[a-f0-9]{64})?$/;
export const imageReferenceSchema = (label = "Image") =>
  requiredText(label, { max: 255 }).regex(
    IMAGE_REFERENCE_PATTERN,
    `${label} must be an image reference such as nginx:1.27 or ghcr.io/org/app:tag`,
  );

/** A repository of a registry (the distribution spec's name grammar). */
const repositorySchema = requiredText("Repository", { max: 255 }).regex(
  /^[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*(?:\/[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*)*$/,
  "Repository must be a registry repository such as acme/web (lowercase letters, digits, . _ - and /)",
);
const tagSchema = requiredText("Tag", { max: 128 }).regex(
  /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$/,
  "Tag must be letters, digits, _ . and - (such as 1.4.2 or latest)",
);
/** A relative path inside the repository: no leading /, no .. segment. */
const repositoryPath = (label: string) =>
  requiredText(label, { max: 255 }).regex(
    /^(?!\/)(?!.*(?:^|\/)\.\.(?:\/|$))[A-Za-z0-9._\-/]+$/,
    `${label} must be a path inside the repository such as Dockerfile or services/web (no leading / or ..)`,
  );

export const applicationSourceKinds = ["image", "registry", "github", "helm"] as const;
export type ApplicationSourceKind = (typeof applicationSourceKinds)[number];
export const applicationSourceLabels: Record<ApplicationSourceKind, string> = {
  image: "Public image",
  registry: "Image from a connected registry",
  github: "GitHub repository",
  helm: "Helm chart",
};

export const publicImageSourceSchema = z.object({ kind: z.literal("image"), image: imageReferenceSchema() });

export const registryImageSourceSchema = z.object({
  kind: z.literal("registry"),
  /** A container registry connection of the organization (DOCKER, GITHUB, AWS_ECR, GCP_ARTIFACT_REGISTRY). */
  connectionId: chosenId("Choose a container registry connection"),
  repository: repositorySchema,
  tag: tagSchema,
});

/** A name git accepts for a branch or tag (git check-ref-format), or a commit's SHA. */
export const gitRefPattern = /^(?![-/.])(?!.*(?:\.\.|\/\/|@\{|\.lock$|[/.]$))[^\s~^:?*[\\]+$/;

export const githubSourceSchema = z.object({
  kind: z.literal("github"),
  /** A GitHub connection (VERSION_CONTROL_TYPE_GITHUB) of the organization. */
  connectionId: chosenId("Choose a GitHub connection"),
  /** "name" in the connection's organization, or "owner/name". */
  repository: requiredText("Repository", { max: 201 }).regex(
    /^(?:[A-Za-z0-9._-]{1,100}\/)?[A-Za-z0-9._-]{1,100}$/,
    'Repository must be a GitHub repository: "name" or "owner/name"',
  ),
  branch: requiredText("Branch", { max: 255 }).regex(
    gitRefPattern,
    "Branch must be a branch name such as main or release/1.4",
  ),
  dockerfilePath: repositoryPath("Dockerfile path"),
  /** The directory sent to the build, relative to the repository's root ("." for the root). */
  buildContext: repositoryPath("Build context"),
});

export const HELM_VALUES_MAX_LENGTH = 65_536;
export const helmChartSourceBaseSchema = z.object({
  kind: z.literal("helm"),
  /** A chart repository of the environment (GET chart-repositories). */
  chartRepositoryId: chosenId("Choose a chart repository"),
  chart: requiredText("Chart", { max: 100 }).regex(
    /^[a-z0-9]([a-z0-9-]*[a-z0-9])?$/,
    "Chart must be a chart name such as nginx or my-app (lowercase letters, digits and -)",
  ),
  version: requiredText("Chart version", { max: 64 }).regex(
    /^v?\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/,
    "Chart version must be a semantic version such as 1.2.3",
  ),
  /** The chart's values as YAML (`helm install -f values.yaml`); empty for the chart's defaults. */
  values: z.string().max(HELM_VALUES_MAX_LENGTH, `Values ${messages.max(HELM_VALUES_MAX_LENGTH)}`),
});

export const portProtocols = ["HTTP", "HTTP2", "GRPC", "TCP", "UDP"] as const;
export const applicationPortSchema = z.object({
  port: int("Port", 1, 65_535),
  protocol: choice("Protocol", portProtocols),
  /** Reachable from the internet through the environment's internet-facing load balancer. */
  public: z.boolean(),
});

/**
 * A variable the application's containers get: a plain value, an environment variable of the environment
 * (`${NAME}`, resolved at deployment), or a secret attribute of another service of the environment, by the
 * service's name (so a clone's copy points at the clone's service), such as a database's connection string.
 */
export const applicationVariableKinds = ["value", "variable", "attribute"] as const;
export const applicationVariableSchema = z.discriminatedUnion("kind", [
  z.object({
    kind: z.literal("value"),
    name: environmentVariableNameSchema,
    value: z.string().max(32_768, `Value ${messages.max(32_768)}`),
  }),
  z.object({
    kind: z.literal("variable"),
    name: environmentVariableNameSchema,
    variable: environmentVariableNameSchema,
  }),
  z.object({
    kind: z.literal("attribute"),
    name: environmentVariableNameSchema,
    service: requiredText("Service", { max: 40 }).regex(
      patterns.lowercaseAlphanumericHyphen.regex,
      "Choose a service of this environment",
    ),
    attribute: requiredText("Attribute", { max: 64 }).regex(/^[A-Za-z][A-Za-z0-9]*$/, "Choose an attribute"),
  }),
]);
export type ApplicationVariable = z.infer<typeof applicationVariableSchema>;

/**
 * A variable as the service's settings hold it (`{ name, value }`): `${NAME}` alone references the environment
 * variable, `${{service.attribute}}` alone another service's attribute, anything else is a value.
 */
export function applicationVariableOf(entry: { name: string; value: string }): ApplicationVariable {
  const reference = /^\$\{([A-Za-z_][A-Za-z0-9_]*)\}$/.exec(entry.value);
  if (reference?.[1]) return { kind: "variable", name: entry.name, variable: reference[1] };
  const attribute = /^\$\{\{([a-z0-9-]+)\.([A-Za-z][A-Za-z0-9]*)\}\}$/.exec(entry.value);
  if (attribute?.[1] && attribute[2]) {
    return { kind: "attribute", name: entry.name, service: attribute[1], attribute: attribute[2] };
  }
  return { kind: "value", name: entry.name, value: entry.value };
}

/** vCPU and memory as Fargate and GKE Autopilot sell them: each CPU size allows a range of memory. */
export const applicationCpuChoices = ["0.25", "0.5", "1", "2", "4"] as const;
export const applicationMemoryChoicesMb = [512, 1024, 2048, 3072, 4096, 8192, 16_384, 30_720] as const;
export const memoryRangeByCpuMb: Record<(typeof applicationCpuChoices)[number], [number, number]> = {
  "0.25": [512, 2048],
  "0.5": [1024, 4096],
  "1": [2048, 8192],
  "2": [4096, 16_384],
  "4": [8192, 30_720],
};
const memoryMbSchema = (label: string) =>
  z
    .number({ error: messages.required(label) })
    .refine(
      (value) => (applicationMemoryChoicesMb as readonly number[]).includes(value),
      `${label} must be one of: ${applicationMemoryChoicesMb.join(", ")}`,
    );

export const applicationScalingSchema = z
  .discriminatedUnion("mode", [
    z.object({ mode: z.literal("fixed"), replicas: int("Replicas", 1, 50) }),
    z.object({
      mode: z.literal("autoscaling"),
      minReplicas: int("Minimum replicas", 1, 50),
      maxReplicas: int("Maximum replicas", 1, 50),
      targetCpuPercent: int("Target CPU (%)", 10, 95),
    }),
  ])
  .refine((scaling) => scaling.mode === "fixed" || scaling.minReplicas <= scaling.maxReplicas, {
    path: ["maxReplicas"],
    message: "Maximum replicas must be at least the minimum",
  });

export const applicationHealthCheckSchema = z
  .object({
    path: requiredText("Path", { max: 255 }).regex(/^\/\S*$/, "Path must begin with /"),
    port: int("Port", 1, 65_535),
    intervalSeconds: int("Interval (seconds)", 5, 300),
    timeoutSeconds: int("Timeout (seconds)", 1, 60),
    healthyThreshold: int("Healthy threshold", 1, 10),
    unhealthyThreshold: int("Unhealthy threshold", 1, 10),
  })
  .refine((check) => check.timeoutSeconds < check.intervalSeconds, {
    path: ["timeoutSeconds"],
    message: "Timeout must be shorter than the interval",
  });

export const applicationSidecarSchema = z.object({
  name: requiredText("Name", { min: 2, max: 40 }).regex(
    patterns.lowercaseAlphanumericHyphen.regex,
    patterns.lowercaseAlphanumericHyphen.message,
  ),
  image: imageReferenceSchema(),
  cpu: choice("CPU", applicationCpuChoices),
  memoryMb: memoryMbSchema("Memory (MB)"),
  /** Run instead of the image's entrypoint; empty for the image's own. */
  command: z
    .string()
    .trim()
    .max(1024, `Command ${messages.max(1024)}`),
});

const uniqueBy = <T>(list: T[], key: (item: T) => unknown) => new Set(list.map(key)).size === list.length;

/** Everything but the source, and the rules across fields; `source` is the union of the four sources. */
export function applicationConfigSchemaWith<Source extends z.ZodType<{ kind: ApplicationSourceKind }>>(
  source: Source,
) {
  return z
    .object({
      source,
      ports: z
        .array(applicationPortSchema)
        .max(10, "At most 10 ports")
        .refine((ports) => uniqueBy(ports, (port) => port.port), "Each port may be used once"),
      envvars: z
        .array(applicationVariableSchema)
        .max(200, "At most 200 variables")
        .refine((list) => uniqueBy(list, (entry) => entry.name), "Each name may be used once"),
      cpu: choice("CPU", applicationCpuChoices),
      memoryMb: memoryMbSchema("Memory (MB)"),
      scaling: applicationScalingSchema,
      healthCheck: applicationHealthCheckSchema,
      /** The public domain the application answers on, with the TLS certificate that covers it. */
      domain: z
        .object({
          host: z
            .string()
            .trim()
            .max(253, `Domain ${messages.max(253)}`)
            .regex(
              /^$|^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/,
              "Domain must be a lowercase domain name such as app.example.com",
            ),
          /** The certificate's id as GET certificates/match answers it; required with a domain. */
          certificateId: z.string().trim().max(2048),
        })
        .refine((domain) => !domain.host || domain.certificateId, {
          path: ["certificateId"],
          message: "Choose the TLS certificate that covers the domain",
        }),
      /** Run once in a new container of the new version before its pods replace the old ones (migrations). */
      preDeployCommand: z
        .string()
        .trim()
        .max(1024, `Pre-deploy command ${messages.max(1024)}`),
      /** Containers beside the application's in each pod (feature flag "multi-container"). */
      sidecars: z
        .array(applicationSidecarSchema)
        .max(5, "At most 5 sidecar containers")
        .refine((list) => uniqueBy(list, (sidecar) => sidecar.name), "Each sidecar needs its own name"),
    })
    .refine((config) => !config.domain.host || config.ports.some((port) => port.public), {
      path: ["domain", "host"],
      message: "A public domain needs a public port",
    });
}

/**
 * How the environment's load balancer reaches the application (docs/decisions/049), as the Domain field explains it:
 * a domain gets every request for it, path unchanged; without one the application is reached under /<its name>/ on
 * the load balancer's address, also with the path unchanged, since a cloud load balancer cannot strip a prefix.
 */
export const APPLICATION_DOMAIN_DESCRIPTION =
  "Optional: a public domain such as app.example.com, routed to the application whatever the path. Without one, " +
  "the application is reached under /<its name>/ on the environment's load balancer, path unchanged: it must " +
  "serve its pages under that prefix.";

/** The four sources, the Helm values unchecked for YAML syntax (see the module's comment). */
export const applicationSourceFieldsSchema = z.discriminatedUnion("kind", [
  publicImageSourceSchema,
  registryImageSourceSchema,
  githubSourceSchema,
  helmChartSourceBaseSchema,
]);
export const applicationConfigFieldsSchema = applicationConfigSchemaWith(applicationSourceFieldsSchema);
export type ApplicationConfig = z.infer<typeof applicationConfigFieldsSchema>;
export type ApplicationSource = ApplicationConfig["source"];

/** What a create form starts with: a port and health check that the suggested image, nginx:1.27, answers. */
export const defaultApplicationConfig: ApplicationConfig = {
  source: { kind: "image", image: "" },
  ports: [{ port: 80, protocol: "HTTP", public: true }],
  envvars: [],
  cpu: "0.5",
  memoryMb: 1024,
  scaling: { mode: "fixed", replicas: 1 },
  healthCheck: {
    path: "/",
    port: 80,
    intervalSeconds: 10,
    timeoutSeconds: 5,
    healthyThreshold: 2,
    unhealthyThreshold: 3,
  },
  domain: { host: "", certificateId: "" },
  preDeployCommand: "",
  sidecars: [],
};

/** Each source's starting values, for a form that switches between them. */
export const defaultApplicationSources: {
  [K in ApplicationSourceKind]: Extract<ApplicationSource, { kind: K }>;
} = {
  image: { kind: "image", image: "" },
  registry: { kind: "registry", connectionId: "", repository: "", tag: "" },
  github: {
    kind: "github",
    connectionId: "",
    repository: "",
    branch: "main",
    dockerfilePath: "Dockerfile",
    buildContext: ".",
  },
  helm: { kind: "helm", chartRepositoryId: "", chart: "", version: "", values: "" },
};
