import { applicationVariableOf } from "#contract/application-config";
import {
  CloudStepError,
  type DeployContext,
  type NewLogLine,
  type ResolvedVariable,
  type VariableResolution,
} from "./driver";

/**
 * How every driver reads an application's variables (decision 074): resolved by the platform when the driver's
 * step asks (`DeployContext.variables`). A context without a resolver (a driver's own tests) has the values as
 * written; a reference in it cannot be resolved and fails the deployment rather than reach a container as text.
 */
export async function resolvedVariablesOf(
  context: Pick<DeployContext, "resource" | "variables">,
): Promise<VariableResolution> {
  if (context.variables) return context.variables();
  return {
    variables: context.resource.settings.envvars.map((entry) => {
      const variable = applicationVariableOf(entry);
      if (variable.kind !== "value") {
        throw new CloudStepError(
          `${entry.name} is a reference, and this deployment cannot resolve references.`,
          {
            transient: false,
          },
        );
      }
      return { name: entry.name, value: entry.value, secret: false };
    }),
  };
}

/** Where a resolved variable's value came from, in the deployment's words. */
export function referenceWords(variable: ResolvedVariable): string | null {
  const { reference } = variable;
  if (!reference) return null;
  const from =
    reference.kind === "variable"
      ? `the environment variable ${reference.variable}`
      : `${reference.service}'s ${reference.attribute}`;
  return `Resolved ${variable.name} from ${from}${variable.secret ? " (secret)" : ""}`;
}

/** One log line per resolved reference, by name: a value never appears, secret or not. */
export function referenceLines(variables: ResolvedVariable[], at: Date, podName: string): NewLogLine[] {
  return variables.flatMap((variable) => {
    const message = referenceWords(variable);
    return message ? [{ at, podName, level: "info" as const, message }] : [];
  });
}
