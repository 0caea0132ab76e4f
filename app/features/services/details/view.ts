import {
  logTypes,
  metricRanges,
  settingsSubTabs,
  type LogType,
  type MetricRange,
  type SettingsSubTab,
} from "#contract/service-catalogue";
import { serviceDetailTabs, type ServiceDetailTab } from "../paths";

/** What the details page shows, read from its query (SPEC §2.2): unknown values fall back to the defaults. */
export type DetailsView = {
  tab: ServiceDetailTab;
  subTab: SettingsSubTab;
  logType: LogType;
  /** Pods preselected by a link from history (`podNames=a,b`). */
  podNames: string[];
  /** The time range preselected by a link from history (`timestamps=<start>,<end>`). */
  timestamps: string[];
  range: MetricRange;
};

export const serviceTabLabels: Record<ServiceDetailTab, string> = {
  overview: "Overview",
  config: "Configuration",
  "pre-deploy": "Pre-deploy",
  monitoring: "Monitoring",
  logs: "Logs",
  history: "History",
  settings: "Settings",
  cost: "Cost",
  monitor: "Health",
  attributes: "Attributes",
};

export const settingsSubTabLabels: Record<SettingsSubTab, string> = {
  envvars: "Environment variables",
  scaling: "Scaling",
  hardware: "Hardware",
  networking: "Networking",
  volumes: "Volumes",
  "health-check": "Health check",
  schedule: "Schedule",
};

const oneOf = <T extends string>(values: readonly T[], value: string | null, fallback: T): T =>
  values.find((candidate) => candidate === value) ?? fallback;

/** "a, b,,c" → ["a", "b", "c"] */
export function commaList(value: string | null | undefined): string[] {
  return (value ?? "")
    .split(",")
    .map((part) => part.trim())
    .filter(Boolean);
}

export function readDetailsView(search: URLSearchParams): DetailsView {
  return {
    tab: oneOf(serviceDetailTabs, search.get("tab"), "overview"),
    subTab: oneOf(settingsSubTabs, search.get("subTab"), "envvars"),
    logType: oneOf(logTypes, search.get("logType"), "LIVE"),
    podNames: commaList(search.get("podNames")),
    timestamps: commaList(search.get("timestamps")),
    range: oneOf(Object.keys(metricRanges) as MetricRange[], search.get("range"), "1h"),
  };
}
