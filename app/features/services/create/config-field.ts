import type { FieldMetadata } from "@conform-to/react";
import { configFieldLabel } from "#contract/config-labels";
import type { CreatableServiceType } from "#contract/service-catalogue";
import type { ServiceConfig } from "#contract/service-configs";

/** The `config` fieldset of a create form of one type: `config.getFieldset().engine` is named `config.engine`. */
export type ConfigField<T extends CreatableServiceType> = FieldMetadata<
  ServiceConfig<T>,
  Record<string, unknown>,
  string[]
>;

export type ConfigFieldsProps<T extends CreatableServiceType> = { config: ConfigField<T> };

/** The labels of a type's fields, from the catalogue the configuration tab and a change's plan use too. */
export function fieldLabelsOf<T extends CreatableServiceType>(serviceType: T) {
  return (key: keyof ServiceConfig<T> & string) => configFieldLabel(serviceType, key);
}
