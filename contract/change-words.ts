import { applicationChoiceLabel, applicationFieldLabel } from "./application-labels";
import { configChoiceLabel, configFieldLabel, wordsOf } from "./config-labels";
import type { ServiceType } from "./service-catalogue";

// A change's words, for the plan step and the history entry that says how a change landed (issue 24 §1).

/**
 * A changed path as a plan shows it, in its form's words (contract/config-labels.ts): `config.storageGb` →
 * "Storage (GB)", an application's `config.healthCheck.path` → "Health check: Path"; a settings path in its own
 * words (`settings.scaling.maxInstances` → "Max instances").
 */
export function changeLabel(serviceType: ServiceType, path: string): string {
  const [part, ...rest] = path.split(".");
  const key = rest.join(".");
  if (part !== "config") return wordsOf(rest.at(-1) ?? path);
  return serviceType === "application" ? applicationFieldLabel(key) : configFieldLabel(serviceType, key);
}

/** A value as a plan shows it: a choice in the form's words, a switch as on or off, nothing as "none". */
export function changeValue(serviceType: ServiceType, path: string, value: unknown): string {
  if (value === undefined || value === null || value === "") return "none";
  if (typeof value === "boolean") return value ? "on" : "off";
  if (typeof value === "number") return String(value);
  if (typeof value === "string") {
    const key = path.replace(/^config\./, "");
    return serviceType === "application" ? applicationChoiceLabel(key, value) : configChoiceLabel(key, value);
  }
  if (Array.isArray(value)) {
    return value.length ? value.map((item) => changeValue(serviceType, "", item)).join(", ") : "none";
  }
  if (typeof value === "object") {
    // A port, a variable, a sidecar: its parts in words ("port 8080 protocol HTTP public on").
    return Object.entries(value)
      .map(([key, inner]) => `${wordsOf(key).toLowerCase()} ${changeValue(serviceType, "", inner)}`)
      .join(" ");
  }
  return JSON.stringify(value);
}
