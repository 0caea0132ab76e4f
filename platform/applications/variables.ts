import { applicationVariableOf } from "#contract/application-config";
import { isBusyStage } from "#contract/service-catalogue";
import { CloudStepError, type ResolvedVariable, type VariableResolution } from "../cloud/driver";
import type { Database } from "../db/index";
import { plaintextOf, variablesOf } from "../environments/variables";
import type { SecretCipher } from "../lib/cipher";
import { environmentAttributes } from "../services/attributes";

/**
 * An application's variables resolved for its deployment (decision 074), the one resolver every driver is given
 * (`DeployContext.variables`): `${NAME}` becomes the environment's variable (a secret one unsealed here, for the
 * deployment alone), `${{service.attribute}}` the service's attribute (secret when the service sealed it).
 * Read when the driver's step asks, outside the step's transaction, so a deployment waiting for a service sees
 * it answer, and a variable changed before the step is the one deployed. A reference the environment no longer
 * has (deleted since the application was saved), or an attribute of a service that is not being deployed and has
 * not answered it, fails the deployment in words naming it.
 */
export function applicationVariables(
  db: Database,
  secrets: SecretCipher,
  environmentId: string,
  envvars: readonly { name: string; value: string }[],
): () => Promise<VariableResolution> {
  return async () => {
    const parsed = envvars.map(applicationVariableOf);
    const environmentVariables = parsed.some((entry) => entry.kind === "variable")
      ? new Map((await variablesOf(db, environmentId)).map((row) => [row.name, row]))
      : new Map();
    const attributesOf = environmentAttributes(db, secrets, environmentId);
    const variables: ResolvedVariable[] = [];
    for (const entry of parsed) {
      if (entry.kind === "value") {
        variables.push({ name: entry.name, value: entry.value, secret: false });
      } else if (entry.kind === "variable") {
        const row = environmentVariables.get(entry.variable);
        if (!row) {
          throw new CloudStepError(
            `${entry.name} references the environment variable ${entry.variable}, which this environment no ` +
              `longer has: add it again or change ${entry.name}.`,
            { transient: false },
          );
        }
        variables.push({
          name: entry.name,
          value: plaintextOf(secrets, row),
          secret: row.secret,
          reference: { kind: "variable", variable: entry.variable },
        });
      } else {
        const service = await attributesOf(entry.service);
        if (!service) {
          throw new CloudStepError(
            `${entry.name} references ${entry.service}.${entry.attribute}, but this environment has no service ` +
              `named ${entry.service}.`,
            { transient: false },
          );
        }
        const attribute = service.attributes[entry.attribute];
        // Being deployed (a stack launched together): wait for it. Deployed without it, or never deployed and not
        // deploying: nothing would ever answer it.
        if (!attribute && isBusyStage(service.stage)) {
          return { waitingFor: `${entry.service}'s ${entry.attribute} (${entry.name})` };
        }
        if (!attribute) {
          throw new CloudStepError(
            `${entry.name} references ${entry.service}.${entry.attribute}, which ${entry.service} has not ` +
              `answered: deploy ${entry.service} first.`,
            { transient: false },
          );
        }
        variables.push({
          name: entry.name,
          ...attribute,
          reference: { kind: "attribute", service: entry.service, attribute: entry.attribute },
        });
      }
    }
    return { variables };
  };
}
