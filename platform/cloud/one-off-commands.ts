import type { DeployContext } from "./driver";

/**
 * An application deployment's one-off commands (docs/decisions/073), shared by the drivers: its pre-deploy command
 * (migrations) and a preview's seed command, in the order they run before the new version starts, and the words
 * that name them in its logs and failures.
 */

export type OneOffKind = "pre-deploy" | "seed";
export type OneOff = { kind: OneOffKind; command: string };

const names: Record<OneOffKind, string> = { "pre-deploy": "pre-deploy command", seed: "seed command" };

/** The one-off commands a deployment runs before its new version starts, in order. */
export function oneOffsOf(context: Pick<DeployContext, "resource" | "seedCommand">): OneOff[] {
  if (context.resource.serviceType !== "application") return [];
  // Checked when the configuration was saved (contract/application-config.ts); only the command is read here.
  const { preDeployCommand: saved } = context.resource.config;
  const preDeployCommand = typeof saved === "string" ? saved.trim() : "";
  const seedCommand = context.seedCommand?.trim();
  return [
    ...(preDeployCommand ? [{ kind: "pre-deploy" as const, command: preDeployCommand }] : []),
    ...(seedCommand ? [{ kind: "seed" as const, command: seedCommand }] : []),
  ];
}

/** `The pre-deploy command (sh -c "…")`, as a deployment's logs and failure name it. */
export const oneOffWords = ({ kind, command }: OneOff) =>
  `The ${names[kind]} (sh -c ${JSON.stringify(command)})`;

/** What the deployment waits for while it runs. */
export const oneOffProgress = ({ kind }: OneOff) => `Running the ${names[kind]}`;

/** The name alone: "pre-deploy command". */
export const oneOffName = ({ kind }: Pick<OneOff, "kind">) => names[kind];
