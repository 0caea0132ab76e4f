import { FormProvider, getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Paper, Stack } from "@mantine/core";
import { Form } from "@remix-run/react";
import type { Resource } from "#contract/services";
import { formConstraint } from "~/components/form-constraint";
import { RestrictedFields } from "~/components/restricted";
import { UnsavedChangesDialog } from "~/components/unsaved-changes-dialog";
import { useFeatureFlag } from "~/features/feature-flags/use-feature-flags";
import { useCanInCurrentEnvironment } from "~/features/permissions/permissions";
import type { ServiceActionData } from "~/features/services/details/action-data";
import {
  useConflict,
  useFollowVersion,
  useFormBaseline,
} from "~/features/services/details/use-form-baseline";
import { useUnsavedChanges } from "~/hooks/use-unsaved-changes";
import { RuntimeFields } from "./config-fields";
import {
  editableApplicationConfig,
  editApplicationFieldsSchema,
  editApplicationFormSchema,
  type EditApplicationForm,
} from "./edit-form";
import { SourceFields, type SourceChoices } from "./source-fields";
import { ConfigFormNotices, ConfigSaveButtons } from "~/features/services/details/config-save-buttons";
import { ConfigChangePlan } from "~/features/services/details/change-plan-step";

/** What the configuration tab of an application chooses from (loadSourceChoices). */
export type ApplicationEditChoices = { choices: SourceChoices; serviceNames: string[] };

/**
 * An application's configuration on its details page: the create form's fields (source, ports, variables, size,
 * scaling, health check, domain with its certificate, pre-deploy, sidecars), saved as a draft or saved and
 * deployed, with the change's plan before saving as for the other types. What was typed stays when the form or the
 * platform refuses it.
 */
export function ApplicationConfigPanel({
  environmentName,
  service,
  editing,
  actionData,
}: {
  environmentName: string;
  service: Resource;
  editing: ApplicationEditChoices;
  actionData: ServiceActionData | undefined;
}) {
  const mine = actionData?.form === "config" ? actionData : undefined;
  const sidecarsEnabled = useFeatureFlag("multi-container");
  // The draft when there is one: that is what a save edits.
  const current = {
    version: service.version,
    config: editableApplicationConfig(service.draft?.config ?? service.config),
  };
  const baseline = useFormBaseline(service.version, current);
  const [form, fields] = useForm<EditApplicationForm>({
    id: `application-config-${baseline[0].version}`,
    lastResult: mine?.result,
    defaultValue: { config: baseline[0].values.config },
    constraint: formConstraint(editApplicationFieldsSchema),
    onValidate: ({ formData }) =>
      parseWithZod(formData, { schema: editApplicationFormSchema, disableAutoCoercion: true }),
    // Only the configuration makes the form dirty: not the version or Mantine's own inputs (its segmented
    // controls' radios), which the form's starting values do not hold.
    shouldDirtyConsider: (name) => name === "config",
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  useFollowVersion(service.version, current, form.dirty, baseline);
  const unsavedChanges = useUnsavedChanges(form.dirty, { formId: form.id });
  const conflict = useConflict(mine, baseline[0].version);
  const submitVersion = conflict?.version ?? baseline[0].version;
  const canConfigure = useCanInCurrentEnvironment("services.configure");
  const config = fields.config.getFieldset();

  return (
    <Paper withBorder p="lg" maw={960}>
      <FormProvider context={form.context}>
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
              <Stack gap="md">
                <SourceFields
                  source={config.source}
                  environmentName={environmentName}
                  choices={editing.choices}
                />
                <RuntimeFields
                  config={fields.config}
                  environmentName={environmentName}
                  serviceNames={editing.serviceNames}
                  sidecarsEnabled={sidecarsEnabled}
                />
              </Stack>
            </RestrictedFields>
            <ConfigChangePlan service={service} step={mine?.plan} form={form} />
            <ConfigSaveButtons service={service} dirty={form.dirty} onUndo={() => form.reset()} />
          </Stack>
        </Form>
      </FormProvider>
      <UnsavedChangesDialog blocker={unsavedChanges} />
    </Paper>
  );
}
