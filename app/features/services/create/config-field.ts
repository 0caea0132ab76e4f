import type { FieldMetadata } from "@conform-to/react";
import type { CreatableServiceType } from "#contract/services";
import type { ServiceConfig } from "#contract/service-configs";

/** The `config` fieldset of a create form of one type: `config.getFieldset().engine` is named `config.engine`. */
export type ConfigField<T extends CreatableServiceType> = FieldMetadata<
  ServiceConfig<T>,
  Record<string, unknown>,
  string[]
>;

export type ConfigFieldsProps<T extends CreatableServiceType> = { config: ConfigField<T> };

/** Select options from values, labelled by `labels` where given. */
export function optionsOf(values: readonly string[], labels: Record<string, string> = {}) {
  return values.map((value) => ({ value, label: labels[value] ?? value }));
}
