import { wordsOf } from "./config-labels";

/**
 * The words of an application's configuration fields and choices, as its form shows them, for a change's plan: the
 * application's part of the catalogue in config-labels.ts.
 */

/** Each field's label in an application's form, by its path under `config` (nested ones under their group's). */
const applicationFieldLabels: Record<string, string> = {
  "source.kind": "Source",
  "source.image": "Image",
  "source.connectionId": "Connection",
  "source.repository": "Repository",
  "source.tag": "Tag",
  "source.branch": "Branch",
  "source.dockerfilePath": "Dockerfile path",
  "source.buildContext": "Build context",
  "source.chartRepositoryId": "Chart repository",
  "source.chart": "Chart",
  "source.version": "Chart version",
  "source.values": "Values (YAML)",
  ports: "Ports",
  envvars: "Environment variables",
  cpu: "CPU (vCPU)",
  scaling: "Scaling",
  "scaling.mode": "Scaling",
  "scaling.replicas": "Replicas",
  "scaling.minReplicas": "Minimum replicas",
  "scaling.maxReplicas": "Maximum replicas",
  "scaling.targetCpuPercent": "Target CPU (%)",
  healthCheck: "Health check",
  "healthCheck.path": "Path",
  "healthCheck.port": "Port",
  "healthCheck.intervalSeconds": "Interval (seconds)",
  "healthCheck.timeoutSeconds": "Timeout (seconds)",
  "healthCheck.healthyThreshold": "Healthy threshold",
  "healthCheck.unhealthyThreshold": "Unhealthy threshold",
  "domain.host": "Domain",
  "domain.certificateId": "TLS certificate",
  preDeployCommand: "Pre-deploy command",
  sidecars: "Sidecar containers",
};

/** An application's groups whose fields read with the group's name before theirs in a plan ("Health check: Path"). */
const groupedFields = new Set(["healthCheck"]);

const applicationChoiceLabels: Record<string, Record<string, string>> = {
  "source.kind": {
    image: "Public image",
    registry: "Image from a connected registry",
    github: "GitHub repository",
    helm: "Helm chart",
  },
  "scaling.mode": { fixed: "Fixed replicas", autoscaling: "Autoscaling" },
};

/**
 * The label of an application's configuration field at `path` under `config`; a field of a group reads with the
 * group's name first where the form shows it under a heading ("healthCheck.path" → "Health check: Path").
 */
export function applicationFieldLabel(path: string): string {
  const [group = "", ...rest] = path.split(".");
  const label = applicationFieldLabels[path] ?? wordsOf(path.split(".").at(-1) ?? path);
  return rest.length && groupedFields.has(group)
    ? `${applicationFieldLabels[group] ?? wordsOf(group)}: ${label}`
    : label;
}

/** The words of the choice `value` of an application's field at `path` ("scaling.mode": "fixed" → "Fixed replicas"). */
export function applicationChoiceLabel(path: string, value: string): string {
  return applicationChoiceLabels[path]?.[value] ?? value;
}
