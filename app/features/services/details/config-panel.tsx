import { getFormProps, getInputProps, useForm, type FieldMetadata } from "@conform-to/react";
import { getZodConstraint } from "@conform-to/zod/v4";
import { parseWithZod } from "@conform-to/zod/v4";
import { Paper, SimpleGrid, Stack } from "@mantine/core";
import { Form } from "@remix-run/react";
import { useMemo } from "react";
import * as z from "zod";
import type { Resource } from "#contract/services";
import { serviceConfigSchemas } from "#contract/service-configs";
import { NumberField, SelectField, SwitchField, TextField } from "~/components/forms";
import { UnsavedChangesDialog } from "~/components/unsaved-changes-dialog";
import { useUnsavedChanges } from "~/hooks/use-unsaved-changes";
import type { ServiceActionData } from "./action-data";
import { configFields, configFormDefaults, configFormSchema, type ConfigField } from "./config-form";
import { useConflict, useFollowVersion, useFormBaseline } from "./use-form-baseline";
import { RestrictedFields } from "~/components/restricted";
import { useCanInCurrentEnvironment } from "~/features/permissions/permissions";
import { ConfigFormNotices, ConfigSaveButtons } from "./config-save-buttons";
import { ConfigChangePlan } from "./change-plan-step";

/** The service's configuration as a form built from its type's schema, saved as a draft or applied at once. */
export function ConfigPanel({
  service,
  actionData,
}: {
  service: Resource;
  actionData: ServiceActionData | undefined;
}) {
  const mine = actionData?.form === "config" ? actionData : undefined;
  // The draft when there is one: that is what a save edits.
  const current = {
    version: service.version,
    config: configFormDefaults(service.serviceType, service.draft?.config ?? service.config),
  };
  const baseline = useFormBaseline(service.version, current);
  const schema = useMemo(
    () =>
      z.object({
        intent: z.enum(["save-config", "save-config-draft"]),
        version: z.number().int().positive(),
        config: configFormSchema(service.serviceType),
      }),
    [service.serviceType],
  );
  const fields = useMemo(() => configFields(service.serviceType), [service.serviceType]);
  const [form, formFields] = useForm({
    id: `service-config-${baseline[0].version}`,
    lastResult: mine?.result,
    // The form holds text for lists; conform types defaults by the parsed values.
    defaultValue: baseline[0].values as never,
    constraint: getZodConstraint(z.object({ config: serviceConfigSchemas[service.serviceType] })),
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  useFollowVersion(service.version, current, form.dirty, baseline);
  const unsavedChanges = useUnsavedChanges(form.dirty, { formId: form.id });
  const configFieldset = formFields.config.getFieldset();
  const conflict = useConflict(mine, baseline[0].version);
  const submitVersion = conflict?.version ?? baseline[0].version;
  const canConfigure = useCanInCurrentEnvironment("services.configure");

  return (
    <Paper withBorder p="lg" maw={820}>
      <Form method="post" preventScrollReset {...getFormProps(form)}>
        <input type="hidden" name="version" value={submitVersion} />
        <Stack gap="md">
          <ConfigFormNotices
            service={service}
            conflict={conflict}
            errors={form.errors}
            errorId={form.errorId}
          />
          <RestrictedFields allowed={canConfigure}>
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
              {fields.map((field) => (
                <ConfigFieldInput
                  key={field.name}
                  field={field}
                  meta={(configFieldset as Record<string, FieldMetadata<unknown>>)[field.name]}
                />
              ))}
            </SimpleGrid>
          </RestrictedFields>
          <ConfigChangePlan service={service} step={mine?.plan} form={form} />
          <ConfigSaveButtons service={service} dirty={form.dirty} onUndo={() => form.reset()} />
        </Stack>
      </Form>
      <UnsavedChangesDialog blocker={unsavedChanges} />
    </Paper>
  );
}

/** One configuration key, rendered by its kind: enum → select, boolean → switch, number, list, text. */
export function ConfigFieldInput({
  field,
  meta,
}: {
  field: ConfigField;
  meta: FieldMetadata<unknown> | undefined;
}) {
  if (!meta) return null;
  switch (field.kind) {
    case "select":
      return (
        <SelectField
          field={meta as FieldMetadata<string>}
          label={field.label}
          data={field.options}
          allowDeselect={false}
        />
      );
    case "switch":
      return <SwitchField field={meta as FieldMetadata<boolean>} label={field.label} mt="lg" />;
    case "number":
      return (
        <NumberField
          field={meta as FieldMetadata<number>}
          label={field.label}
          min={field.min}
          max={field.max}
          clampBehavior="none"
        />
      );
    case "list":
      return (
        <TextField
          field={meta as FieldMetadata<string>}
          label={field.label}
          description="Separate the entries with commas."
        />
      );
    case "hidden": {
      const { key, ...props } = getInputProps(meta as FieldMetadata<string>, { type: "hidden" });
      return <input key={key} {...props} />;
    }
    case "text":
      return <TextField field={meta as FieldMetadata<string>} label={field.label} />;
  }
}
