// The services' schemas, paths and messages. Their catalogue (types, labels, actions, choices) is service-catalogue.ts,
// free of zod, so that pages which validate no form load none (decision 064).
import * as z from "zod";
import { costEstimateSchema, environmentVariableNameSchema } from "./environments";
import {
  alarmSeverities,
  cpuChoices,
  DATE_RANGE,
  logLevels,
  logTypes,
  metricNames,
  metricRanges,
  observabilityConnectionKinds,
  resourceActions,
  serviceCategories,
  serviceTypes,
  SERVERLESS_UPLOAD_MAX_BYTES,
  weekdays,
  type MetricRange,
} from "./service-catalogue";
import { stageSchema } from "./stage-schema";
import { requiredText } from "./required-text";
import { messages, patterns } from "./validation";

export const serviceTypeSchema = z.enum(serviceTypes);

// ---------------------------------------------------------------------------------------------------------------
// Field rules shared by the forms and the platform

export const int = (label: string, min: number, max: number) =>
  z
    .number({ error: messages.required(label) })
    .int(`${label} ${messages.integer}`)
    .min(min, `${label} must be between ${min} and ${max}`)
    .max(max, `${label} must be between ${min} and ${max}`);

export const choice = <const T extends readonly [string, ...string[]]>(label: string, values: T) =>
  z.enum(values, { error: `${label} must be one of: ${values.join(", ")}` });

export const serviceNameSchema = requiredText("Name", { min: 2, max: 40 }).regex(
  patterns.lowercaseAlphanumericHyphen.regex,
  patterns.lowercaseAlphanumericHyphen.message,
);

export const domainSchema = (label: string, { wildcard }: { wildcard: boolean }) =>
  requiredText(label, { max: 253 }).regex(
    wildcard
      ? /^(\*\.)?([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/
      : /^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/,
    wildcard
      ? `${label} must be a lowercase domain name such as api.example.com or *.example.com`
      : `${label} must be a lowercase domain name such as api.example.com`,
  );

// ---------------------------------------------------------------------------------------------------------------
// Settings shared by every type (the settings tab's sub-tabs)

const timeOfDay = (label: string) =>
  z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, `${label} must be a time such as 08:30`);

export const serviceSettingsSchema = z.object({
  /** Values may reference environment variables as ${NAME}. */
  envvars: z
    .array(
      z.object({
        name: environmentVariableNameSchema,
        value: z.string().max(32_768, `Value ${messages.max(32_768)}`),
      }),
    )
    .max(200, "At most 200 variables")
    .refine(
      (list) => new Set(list.map((entry) => entry.name)).size === list.length,
      "Each name may be used once",
    ),
  scaling: z
    .object({
      minInstances: int("Minimum instances", 0, 50),
      maxInstances: int("Maximum instances", 1, 50),
      targetCpuPercent: int("Target CPU (%)", 10, 95),
    })
    .refine((scaling) => scaling.minInstances <= scaling.maxInstances, {
      path: ["maxInstances"],
      message: "Maximum instances must be at least the minimum",
    }),
  hardware: z.object({
    cpu: choice("CPU", cpuChoices),
    memoryMb: int("Memory (MB)", 256, 32_768),
  }),
  networking: z.object({
    port: int("Port", 1, 65_535),
    public: z.boolean(),
    customDomain: z
      .string()
      .trim()
      .max(253)
      .regex(
        /^$|^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/,
        "Custom domain must be a lowercase domain name such as api.example.com",
      ),
  }),
  volumes: z
    .array(
      z.object({
        name: serviceNameSchema,
        mountPath: requiredText("Mount path", { max: 255 }).regex(
          /^\/[A-Za-z0-9._/-]*$/,
          "Mount path must be an absolute path such as /data",
        ),
        sizeGb: int("Size (GB)", 1, 16_384),
      }),
    )
    .max(10, "At most 10 volumes"),
  healthCheck: z
    .object({
      path: requiredText("Path", { max: 255 }).regex(/^\/\S*$/, "Path must begin with /"),
      port: int("Port", 1, 65_535),
      intervalSeconds: int("Interval (seconds)", 5, 300),
      timeoutSeconds: int("Timeout (seconds)", 1, 60),
      healthyThreshold: int("Healthy threshold", 1, 10),
    })
    .refine((check) => check.timeoutSeconds < check.intervalSeconds, {
      path: ["timeoutSeconds"],
      message: "Timeout must be shorter than the interval",
    }),
  /** Schedule-based autoscaling (feature flag "schedule-based-autoscaling"). */
  schedule: z
    .array(
      z
        .object({
          days: z.array(z.enum(weekdays)).min(1, "Choose at least one day"),
          start: timeOfDay("Start"),
          end: timeOfDay("End"),
          minInstances: int("Minimum instances", 0, 50),
        })
        .refine((rule) => rule.start < rule.end, { path: ["end"], message: "End must be after the start" }),
    )
    .max(20, "At most 20 rules"),
});
export type ServiceSettings = z.infer<typeof serviceSettingsSchema>;

export const defaultServiceSettings: ServiceSettings = {
  envvars: [],
  scaling: { minInstances: 1, maxInstances: 3, targetCpuPercent: 70 },
  hardware: { cpu: "0.5", memoryMb: 1024 },
  networking: { port: 8080, public: false, customDomain: "" },
  volumes: [],
  healthCheck: { path: "/healthz", port: 8080, intervalSeconds: 30, timeoutSeconds: 5, healthyThreshold: 3 },
  schedule: [],
};

// ---------------------------------------------------------------------------------------------------------------
// Resources as the API answers them

export const podSchema = z.object({ name: z.string(), status: z.enum(["Pending", "Running", "Terminated"]) });

export const resourceSummarySchema = z.object({
  id: z.string(),
  environmentId: z.string(),
  name: z.string(),
  serviceType: serviceTypeSchema,
  stage: stageSchema,
  /** Bumped by every write; a PUT must carry the version it edited (409 when another write came first). */
  version: z.number().int().positive(),
  /** Retries used since the last successful deployment. */
  retries: z.number().int().nonnegative(),
  /** Why the last deployment failed, or the retry-limit message. */
  message: z.string().nullable(),
  /** Estimated monthly cost in US dollars. */
  monthlyCost: z.number().nonnegative(),
  /** The cloud region it runs in (its environment's). */
  region: z.string(),
  /** How big it runs, in words: instance size, node type, memory, storage class (decision 037). */
  size: z.string(),
  /** How many of it run: instances, nodes, cache nodes, a database's standby (2 when Multi-AZ). */
  replicas: z.number().int().nonnegative(),
  /**
   * While STAGE_FAILED: when it began failing, the end of the first failed deployment since the last one that
   * succeeded (retries that failed again do not move it); null otherwise.
   */
  failedSince: z.string().nullable(),
  /** Where clients reach it (host name or URL) once deployed; always null for a type without one. */
  endpoint: z.string().nullable(),
  /**
   * While STAGE_FAILED because the periodic check found it changed outside the console (the message says what):
   * when it found that; null otherwise.
   */
  driftedAt: z.string().nullable(),
  /** Whether saved changes wait to be launched (PUT draft, then POST draft/launch). */
  hasDraft: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type ResourceSummary = z.infer<typeof resourceSummarySchema>;

export const configDiffSchema = z.array(
  z.object({ path: z.string(), before: z.unknown().optional(), after: z.unknown().optional() }),
);
export type ConfigDiff = z.infer<typeof configDiffSchema>;

export const historyEntrySchema = z.object({
  id: z.string(),
  action: z.enum(resourceActions),
  /** Name of the user who did it (or "Platform" for the engine's own work). */
  actor: z.string(),
  at: z.string(),
  /** Where that deployment ended; null while it runs (and for Save). */
  outcome: stageSchema.nullable(),
  finishedAt: z.string().nullable(),
  podNames: z.array(z.string()),
  /** What the cloud said of the change: which settings update in place and which replace the service. */
  message: z.string().nullable(),
  diff: configDiffSchema,
});
export type HistoryEntry = z.infer<typeof historyEntrySchema>;

/** One unit as the cloud reports it: its id or name, and its status in the cloud's word (RUNNING, available). */
export const serviceUnitSchema = z.object({ name: z.string(), status: z.string() });
export type ServiceUnit = z.infer<typeof serviceUnitSchema>;

/**
 * GET resources/{id}/units: the units the service runs now (none for a type without them), asked of its cloud;
 * `simulated` when the simulated cloud made them up (an environment without a cloud account).
 */
export const serviceUnitsSchema = z.object({ simulated: z.boolean(), units: z.array(serviceUnitSchema) });
export type ServiceUnits = z.infer<typeof serviceUnitsSchema>;

/**
 * What a busy service's running deployment or teardown waits for, in the cloud's words ("Waiting for the DB instance
 * orders-db to become available"), and since when that wait began.
 */
export const serviceProgressSchema = z.object({ step: z.string(), since: z.string() });
export type ServiceProgress = z.infer<typeof serviceProgressSchema>;

export const resourceSchema = resourceSummarySchema.extend({
  config: z.record(z.string(), z.unknown()),
  settings: serviceSettingsSchema,
  /** The saved, not yet launched configuration and settings. */
  draft: z.object({ config: z.record(z.string(), z.unknown()), settings: serviceSettingsSchema }).nullable(),
  /**
   * The names its deployments' log lines carry (the simulated cloud's made-up pods, whatever the type); what the
   * service really runs is GET resources/{id}/units.
   */
  pods: z.array(podSchema),
  /** While a deployment or teardown runs a step that waits: what for and since when; null otherwise. */
  progress: serviceProgressSchema.nullable(),
  /** Names of the secret attributes GET attributes/{attribute} reveals. */
  secretAttributes: z.array(z.string()),
  /** Newest first. */
  history: z.array(historyEntrySchema),
});
export type Resource = z.infer<typeof resourceSchema>;

/** GET infrastructure?serviceType=&category=&stage=&text=&page=&pageSize= */
export const resourceListQuerySchema = z.object({
  serviceType: serviceTypeSchema.optional(),
  category: z.enum(serviceCategories).optional(),
  stage: stageSchema.optional(),
  text: z
    .string()
    .trim()
    .max(100, `text ${messages.max(100)}`)
    .optional(),
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(200).default(50),
});
export type ResourceListQuery = Omit<z.input<typeof resourceListQuerySchema>, "page" | "pageSize"> & {
  page?: number;
  pageSize?: number;
};
export const resourceListSchema = z.object({
  infrastructure: z.array(resourceSummarySchema),
  total: z.number().int().nonnegative(),
  page: z.number().int().positive(),
  pageSize: z.number().int().positive(),
});
export const resourceResponseSchema = z.object({ resource: resourceSchema });

/**
 * POST infrastructure. `launch` false saves a draft (Save: STAGE_DRAFT); true creates and deploys it (Create:
 * STAGE_QUEUED, or STAGE_INFRASTRUCTURE_NOT_READY while the environment's network is not deployed). The config is
 * checked against serviceConfigSchemas[serviceType].
 */
export const createResourceRequestSchema = z.object({
  serviceType: serviceTypeSchema,
  name: serviceNameSchema,
  config: z.record(z.string(), z.unknown()),
  settings: serviceSettingsSchema.optional(),
  launch: z.boolean(),
});
export type CreateResourceRequest = z.infer<typeof createResourceRequestSchema>;

/**
 * PUT infrastructure/{id} applies at once (a config change redeploys: Relaunch; a settings-only change syncs:
 * STAGE_SYNCING); PUT infrastructure/{id}/draft saves for later (Save). Either part may be left out.
 */
export const updateResourceRequestSchema = z.object({
  version: z
    .number({ error: messages.required("version") })
    .int()
    .positive(),
  config: z.record(z.string(), z.unknown()).optional(),
  settings: serviceSettingsSchema.optional(),
  /** The service's name, typed to confirm a change that replaces it and deletes its data (contract/change-plans.ts). */
  confirmation: z.string().optional(),
});
export type UpdateResourceRequest = z.infer<typeof updateResourceRequestSchema>;

/** POST infrastructure/{id}/retry (empty body) */
export const retryResponseSchema = z.object({ success: z.boolean() });

/** GET infrastructure/{id}/attributes/{attribute} */
export const attributeResponseSchema = z.object({ attribute: z.string(), value: z.string() });

/** POST infrastructure/estimate-cost */
export const estimateResourceCostRequestSchema = z.object({
  serviceType: serviceTypeSchema,
  config: z.record(z.string(), z.unknown()),
  settings: serviceSettingsSchema.optional(),
});
export { costEstimateSchema };

/** POST infrastructure/serverless/upload: multipart form with the archive in the field `file`. */
export const serverlessUploadSchema = z.object({
  id: z.string(),
  fileName: z.string(),
  sizeBytes: z.number().int().positive(),
  sha256: z.string(),
  createdAt: z.string(),
});
export const serverlessUploadResponseSchema = z.object({ upload: serverlessUploadSchema });
export type ServerlessUpload = z.infer<typeof serverlessUploadSchema>;

// ---------------------------------------------------------------------------------------------------------------
// Logs, metrics, alarms

export const logLineSchema = z.object({
  /** Increasing per service: the cursor of the live tail. */
  id: z.string(),
  at: z.string(),
  podName: z.string(),
  level: z.enum(logLevels),
  message: z.string(),
});
export type LogLine = z.infer<typeof logLineSchema>;

const isoInRange = z.iso
  .datetime({ offset: true, error: "must be a date and time (ISO 8601)" })
  .refine(
    (value) => value.slice(0, 10) >= DATE_RANGE.min && value.slice(0, 10) <= DATE_RANGE.max,
    `must be between ${DATE_RANGE.min} and ${DATE_RANGE.max}`,
  );

/**
 * GET resources/{id}/logs. LIVE: `after` (a line id) returns what came since, oldest first, up to `limit`; without
 * it the last `limit` lines. SEARCH: `text`, `level`, `from`, `to`, `podNames` (comma-separated), newest first.
 */
export const logQuerySchema = z
  .object({
    logType: z.enum(logTypes).default("LIVE"),
    after: z.string().regex(/^\d+$/, "after must be a log line id").optional(),
    text: z
      .string()
      .trim()
      .max(200, `text ${messages.max(200)}`)
      .optional(),
    level: z.enum(logLevels).optional(),
    from: isoInRange.optional(),
    to: isoInRange.optional(),
    podNames: z.string().max(2000).optional(),
    limit: z.coerce.number().int().min(1).max(1000).default(200),
  })
  .refine((query) => !query.from || !query.to || query.from <= query.to, {
    path: ["to"],
    message: "The end must not be before the start",
  });
export type LogQuery = Omit<z.input<typeof logQuerySchema>, "limit"> & { limit?: number };
export const logListSchema = z.object({ logs: z.array(logLineSchema), podNames: z.array(z.string()) });

/** GET resources/{id}/metrics and .../metrics/alarms?range=&step= (step in seconds; at most 500 points). */
export const metricsQuerySchema = z
  .object({
    range: z.enum(Object.keys(metricRanges) as [MetricRange, ...MetricRange[]]).default("1h"),
    step: z.coerce.number().int().min(10, "step must be at least 10 seconds").max(86_400).optional(),
  })
  .refine((query) => !query.step || metricRanges[query.range] / query.step <= 500, {
    path: ["step"],
    message: "step is too small for this range (at most 500 points)",
  });
export const metricSeriesSchema = z.object({
  metric: z.enum(metricNames),
  unit: z.string(),
  points: z.array(z.object({ at: z.string(), value: z.number() })),
});
export const metricsSchema = z.object({
  range: z.string(),
  step: z.number().int().positive(),
  series: z.array(metricSeriesSchema),
});
export type Metrics = z.infer<typeof metricsSchema>;
export const alarmSchema = z.object({
  id: z.string(),
  name: z.string(),
  metric: z.enum(metricNames),
  severity: z.enum(alarmSeverities),
  /** CloudWatch's states: INSUFFICIENT_DATA until the metric has a datapoint to judge. */
  state: z.enum(["ALARM", "OK", "INSUFFICIENT_DATA"]),
  threshold: z.number(),
  /** The latest datapoint; null while there is none. */
  value: z.number().nullable(),
  since: z.string(),
});
export type Alarm = z.infer<typeof alarmSchema>;
export const alarmListSchema = z.object({ alarms: z.array(alarmSchema) });

// ---------------------------------------------------------------------------------------------------------------
// Environment-level neighbours: load balancers, certificates, observability, chart repositories

export const loadBalancerListSchema = z.object({
  loadBalancers: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      dnsName: z.string(),
      scheme: z.enum(["internet-facing", "internal"]),
      resourceIds: z.array(z.string()),
      /** Its listener rules: which host and port reach which application's port (issue 15). */
      routes: z.array(
        z.object({
          resourceId: z.string(),
          /** The application's domain, or null for the load balancer's own DNS name. */
          host: z.string().nullable(),
          path: z.string(),
          listenerPort: z.number().int(),
          protocol: z.string(),
          targetPort: z.number().int(),
          /** TLS on the listener: the certificate's id, or null for plain HTTP/TCP. */
          certificateId: z.string().nullable(),
        }),
      ),
    }),
  ),
});
export const certificateSchema = z.object({
  id: z.string(),
  resourceId: z.string(),
  domain: z.string(),
  subjectAlternativeNames: z.array(z.string()),
  status: z.enum(["PENDING_VALIDATION", "ISSUED", "FAILED"]),
  expiresAt: z.string().nullable(),
});
/** GET wildcardcertificate?domain=example.com and GET certificates/match?domain=api.example.com */
export const certificateQuerySchema = z.object({ domain: domainSchema("domain", { wildcard: false }) });
export const certificateResponseSchema = z.object({ certificate: certificateSchema.nullable() });
export type Certificate = z.infer<typeof certificateSchema>;

// Its own enum rather than connections.ts's: every services page imports this module, and the connections
// catalogue would come along (8 KB of first visit, scripts/check-first-visit-bytes.mjs).
export const observabilityConnectionKindSchema = z.enum(observabilityConnectionKinds);
export const observabilityProviderSchema = z.object({
  id: z.string(),
  connectionId: z.string(),
  createdAt: z.string(),
  /** The linked connection's name and kind. */
  connectionName: z.string(),
  connectionKind: observabilityConnectionKindSchema,
  /** Metrics up to this time have been posted to the provider; null before the first post. */
  lastForwardedAt: z.string().nullable(),
  /** The provider's answer to the last failed post, in plain words; null once a post succeeds. */
  lastForwardError: z.string().nullable(),
  /** The provider's view of the environment's metrics (Datadog's metrics explorer, Middleware's app). */
  dashboardUrl: z.string(),
});
export type ObservabilityProvider = z.infer<typeof observabilityProviderSchema>;
export const observabilitySchema = z.object({
  providers: z.array(observabilityProviderSchema),
  /** Whether the environment's observability add-on is on (the built-in metrics and logs). */
  builtIn: z.boolean(),
});
/** POST observability/providers: an observability connection (Datadog or Middleware) of the organization. */
export const addObservabilityProviderRequestSchema = z.object({
  "connection-id": requiredText("connection-id", { max: 128 }).regex(
    /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i,
    "Choose a Datadog or Middleware connection.",
  ),
});
export const observabilityProviderResponseSchema = z.object({ provider: observabilityProviderSchema });

export const chartRepositorySchema = z.object({
  id: z.string(),
  name: z.string(),
  url: z.string(),
  createdAt: z.string(),
});
export const chartRepositoryListSchema = z.object({ chartRepositories: z.array(chartRepositorySchema) });
export const createChartRepositoryRequestSchema = z.object({
  name: serviceNameSchema,
  url: requiredText("URL", { max: 2048 }).regex(patterns.url.regex, patterns.url.message),
});
export const chartRepositoryResponseSchema = z.object({ chartRepository: chartRepositorySchema });

// ---------------------------------------------------------------------------------------------------------------
// Paths and messages

const environmentLevel = (tenantId: string, environmentId: string) =>
  `/v2/organizations/${encodeURIComponent(tenantId)}/environments/${encodeURIComponent(environmentId)}`;
const query = (values: Record<string, string | number | undefined>) => {
  const defined = Object.entries(values).filter(
    (entry): entry is [string, string | number] => entry[1] !== undefined && entry[1] !== "",
  );
  return defined.length ? `?${new URLSearchParams(defined.map(([key, value]) => [key, String(value)]))}` : "";
};

export const servicePaths = {
  list: (t: string, w: string, filters: ResourceListQuery = {}) =>
    `${environmentLevel(t, w)}/infrastructure${query(filters)}`,
  one: (t: string, w: string, id: string) =>
    `${environmentLevel(t, w)}/infrastructure/${encodeURIComponent(id)}`,
  draft: (t: string, w: string, id: string) => `${servicePaths.one(t, w, id)}/draft`,
  launchDraft: (t: string, w: string, id: string) => `${servicePaths.one(t, w, id)}/draft/launch`,
  retry: (t: string, w: string, id: string) => `${servicePaths.one(t, w, id)}/retry`,
  cancel: (t: string, w: string, id: string) => `${servicePaths.one(t, w, id)}/cancel`,
  attribute: (t: string, w: string, id: string, attribute: string) =>
    `${servicePaths.one(t, w, id)}/attributes/${encodeURIComponent(attribute)}`,
  estimateCost: (t: string, w: string) => `${environmentLevel(t, w)}/infrastructure/estimate-cost`,
  serverlessUpload: (t: string, w: string) => `${environmentLevel(t, w)}/infrastructure/serverless/upload`,
  logs: (t: string, w: string, id: string, logQuery: LogQuery = {}) =>
    `${environmentLevel(t, w)}/resources/${encodeURIComponent(id)}/logs${query(logQuery)}`,
  units: (t: string, w: string, id: string) =>
    `${environmentLevel(t, w)}/resources/${encodeURIComponent(id)}/units`,
  metrics: (t: string, w: string, id: string, metricsQuery: { range?: MetricRange; step?: number } = {}) =>
    `${environmentLevel(t, w)}/resources/${encodeURIComponent(id)}/metrics${query(metricsQuery)}`,
  alarms: (t: string, w: string, id: string, metricsQuery: { range?: MetricRange; step?: number } = {}) =>
    `${environmentLevel(t, w)}/resources/${encodeURIComponent(id)}/metrics/alarms${query(metricsQuery)}`,
  loadBalancers: (t: string, w: string) => `${environmentLevel(t, w)}/applications/loadbalancers`,
  map: (t: string, w: string) => `${environmentLevel(t, w)}/infrastructure-map`,
  wildcardCertificate: (t: string, w: string, domain: string) =>
    `${environmentLevel(t, w)}/wildcardcertificate${query({ domain })}`,
  certificateMatch: (t: string, w: string, domain: string) =>
    `${environmentLevel(t, w)}/certificates/match${query({ domain })}`,
  observability: (t: string, w: string) => `${environmentLevel(t, w)}/observability`,
  observabilityProviders: (t: string, w: string) => `${environmentLevel(t, w)}/observability/providers`,
  observabilityProvider: (t: string, w: string, id: string) =>
    `${environmentLevel(t, w)}/observability/providers/${encodeURIComponent(id)}`,
  chartRepositories: (t: string, w: string) => `${environmentLevel(t, w)}/chart-repositories`,
};

/**
 * What the platform answers (errors use contract/errors.ts's body; 400 VALIDATION_FAILED carries fieldErrors keyed
 * like `config.storageGb` or `settings.scaling.maxInstances`):
 * - GET infrastructure → resourceListSchema (summaries only: no config, settings or secrets), newest first.
 * - POST infrastructure → 201 resourceResponseSchema; 409 when the name is taken in the environment.
 * - GET infrastructure/{id} → resourceResponseSchema. PUT infrastructure/{id} and PUT .../draft →
 *   resourceResponseSchema; 409 CONFLICT (serviceErrorMessages.staleVersion) when `version` is not the current one,
 *   409 while a deployment runs. POST .../draft/launch → resourceResponseSchema: launches the draft (Provision) or,
 *   with none, redeploys the current configuration (Relaunch); 409 while a deployment runs. A PUT that deploys, or
 *   a launch, whose plan replaces the service and deletes its data → 400 with field `confirmation` unless the body
 *   carries the service's name as `confirmation`; POST .../plan → changePlanResponseSchema (contract/change-plans.ts).
 * - POST .../retry → retryResponseSchema; 409 unless STAGE_FAILED; 409 with serviceErrorMessages.retryLimit once
 *   MAX_RETRIES retries were used. POST .../cancel → resourceResponseSchema (STAGE_CANCELING, then STAGE_CANCELED);
 *   409 unless queued or in progress.
 * - DELETE infrastructure/{id} → 204; 409 while queued, in progress, syncing or canceling.
 * - GET .../attributes/{attribute} → attributeResponseSchema; 404 for a name not in secretAttributes, or before
 *   the first successful deployment.
 * - POST infrastructure/estimate-cost → costEstimateSchema.
 * - POST infrastructure/serverless/upload → 201 serverlessUploadResponseSchema; 400 when not a zip, 413 beyond
 *   SERVERLESS_UPLOAD_MAX_BYTES.
 * - GET resources/{id}/logs → logListSchema; GET resources/{id}/metrics → metricsSchema; .../metrics/alarms →
 *   alarmListSchema.
 * - GET infrastructure-map → environmentMapSchema (contract/infrastructure-map.ts).
 * - GET applications/loadbalancers → loadBalancerListSchema; GET wildcardcertificate and certificates/match →
 *   certificateResponseSchema; GET observability → observabilitySchema; POST observability/providers → 201
 *   observabilityProviderResponseSchema (400 unless it names a Datadog or Middleware connection of the
 *   organization, 409 when already added); DELETE observability/providers/{id} → 204;
 *   GET chart-repositories → chartRepositoryListSchema; POST → 201 chartRepositoryResponseSchema (409 on a taken name).
 */
export const serviceErrorMessages = {
  notFound: "Service not found",
  nameTaken: "A service with this name already exists in this environment",
  staleVersion:
    "This service was changed by someone else since you opened it. Review their changes and save again.",
  deploymentRunning: "A deployment of this service is in progress; wait for it to finish or cancel it",
  notFailed: "Only a failed deployment can be retried",
  notCancelable: "Only a queued or running deployment can be canceled",
  retryLimit:
    "Maximum number of retries reached. Please contact support for assistance or alter your infrastructure configuration.",
  attributeNotFound: "This service has no such attribute",
  attributeNotReady: "The value is available once the service is deployed",
  uploadNotZip: "The file must be a zip archive",
  uploadTooLarge: `The file must be at most ${SERVERLESS_UPLOAD_MAX_BYTES / 1024 / 1024} MB`,
  uploadMissing: "Choose a zip archive to upload",
  uploadNotFound: "The uploaded archive was not found; upload it again",
  providerAdded: "This connection is already an observability provider",
  providerConnectionNotFound: "Choose a Datadog or Middleware connection of this organization.",
  providerNotFound: "Observability provider not found",
  chartRepositoryNameTaken: "A chart repository with this name already exists",
} as const;
