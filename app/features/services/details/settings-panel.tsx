import {
  getCollectionProps,
  getFormProps,
  useForm,
  type FieldMetadata,
  type FormMetadata,
} from "@conform-to/react";
import { getZodConstraint } from "@conform-to/zod/v4";
import { parseWithZod } from "@conform-to/zod/v4";
import { Alert, Checkbox, Group, Paper, Stack, Tabs, Text, Title } from "@mantine/core";
import { Form, Link, useNavigation } from "@remix-run/react";
import { useMemo } from "react";
import {
  cpuChoices,
  isBusyStage,
  settingsSubTabs,
  weekdays,
  type SettingsSubTab,
} from "#contract/service-catalogue";
import { type Resource } from "#contract/services";
import { Button } from "~/components/button";
import { FormErrors, NumberField, SelectField, SwitchField, TextField } from "~/components/forms";
import { UnsavedChangesDialog } from "~/components/unsaved-changes-dialog";
import { useFeatureFlag } from "~/features/feature-flags/use-feature-flags";
import { useUnsavedChanges } from "~/hooks/use-unsaved-changes";
import { servicePagePaths } from "../paths";
import type { ServiceActionData } from "./action-data";
import { ConflictNotice } from "./conflict-notice";
import { DeploymentRunningNotice } from "./deployment-running-notice";
import {
  emptyRows,
  settingsFormDefaults,
  settingsFormSchema,
  settingsKeyOfSubTab,
  type SettingsKey,
} from "./settings-forms";
import { useConflict, useFollowVersion, useFormBaseline } from "./use-form-baseline";
import { settingsSubTabLabels } from "./view";
import { Restricted, RestrictedFields } from "~/components/restricted";
import { useCanInCurrentEnvironment } from "~/features/permissions/permissions";

/** The settings tab: one sub-tab (and one form) per part of the settings. */
export function SettingsPanel({
  environmentName,
  service,
  subTab,
  actionData,
}: {
  environmentName: string;
  service: Resource;
  subTab: SettingsSubTab;
  actionData: ServiceActionData | undefined;
}) {
  const scheduleEnabled = useFeatureFlag("schedule-based-autoscaling");
  const shown = settingsSubTabs.filter((candidate) => candidate !== "schedule" || scheduleEnabled);
  const key = settingsKeyOfSubTab[subTab];
  return (
    <Stack gap="md">
      <Tabs value={subTab} variant="pills">
        <Tabs.List aria-label="Settings sections">
          {shown.map((candidate) => (
            <Tabs.Tab
              key={candidate}
              value={candidate}
              renderRoot={(props) => (
                <Link
                  {...props}
                  to={servicePagePaths.details(environmentName, service.id, {
                    tab: "settings",
                    subTab: candidate,
                  })}
                  preventScrollReset
                />
              )}
            >
              {settingsSubTabLabels[candidate]}
            </Tabs.Tab>
          ))}
        </Tabs.List>
      </Tabs>
      {subTab === "schedule" && !scheduleEnabled ? (
        <Alert
          color="gray"
          title="Schedule-based autoscaling is not available"
          data-testid="schedule-unavailable"
        >
          Scaling on a schedule is not switched on for this organization. Scaling follows the CPU target set
          on the Scaling sub-tab.
        </Alert>
      ) : (
        <SettingsForm
          key={key}
          settingsKey={key}
          service={service}
          actionData={actionData?.form === key ? actionData : undefined}
        />
      )}
    </Stack>
  );
}

function SettingsForm({
  settingsKey,
  service,
  actionData,
}: {
  settingsKey: SettingsKey;
  service: Resource;
  actionData: ServiceActionData | undefined;
}) {
  const navigation = useNavigation();
  const current = settingsFormDefaults(service.settings, settingsKey, service.version);
  const baseline = useFormBaseline(service.version, current);
  const schema = useMemo(() => settingsFormSchema(settingsKey), [settingsKey]);
  const [form, fields] = useForm({
    id: `service-settings-${settingsKey}-${baseline[0].version}`,
    lastResult: actionData?.result,
    defaultValue: baseline[0].values,
    constraint: getZodConstraint(schema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  useFollowVersion(service.version, current, form.dirty, baseline);
  const unsavedChanges = useUnsavedChanges(form.dirty, { formId: form.id });
  const conflict = useConflict(actionData, baseline[0].version);
  const submitVersion = conflict?.version ?? baseline[0].version;
  const saving = navigation.state !== "idle" && navigation.formData?.get("section") === settingsKey;
  const deploying = isBusyStage(service.stage);
  const canConfigure = useCanInCurrentEnvironment("services.configure");
  const part = (fields as unknown as Record<string, FieldMetadata<unknown>>)[settingsKey];

  return (
    <Paper withBorder p="lg" maw={820}>
      <Form method="post" preventScrollReset {...getFormProps(form)}>
        <input type="hidden" name="intent" value="save-settings" />
        <input type="hidden" name="section" value={settingsKey} />
        <input type="hidden" name="version" value={submitVersion} />
        <Stack gap="md">
          {deploying ? <DeploymentRunningNotice /> : null}
          {conflict ? <ConflictNotice conflict={conflict} /> : null}
          <FormErrors errors={conflict ? undefined : form.errors} id={form.errorId} />
          <RestrictedFields allowed={canConfigure}>
            {part ? (
              <PartFields settingsKey={settingsKey} form={form as unknown as ListForm} field={part} />
            ) : null}
          </RestrictedFields>
          <Group justify="flex-end">
            <Button variant="ghostSecondary" disabled={!form.dirty} onClick={() => form.reset()}>
              Undo changes
            </Button>
            <Restricted allowed={canConfigure}>
              <Button type="submit" loading={saving} disabled={deploying}>
                Save settings
              </Button>
            </Restricted>
          </Group>
        </Stack>
      </Form>
      <UnsavedChangesDialog blocker={unsavedChanges} />
    </Paper>
  );
}

type AnyField = FieldMetadata<unknown>;
type ListForm = Pick<FormMetadata<Record<string, unknown>, string[]>, "insert" | "remove">;
// conform's field metadata of nested objects and lists, read by key.
const fieldsetOf = (field: AnyField) =>
  (field as FieldMetadata<Record<string, unknown>>).getFieldset() as unknown as Record<string, AnyField>;
const listOf = (field: AnyField) => (field as FieldMetadata<unknown[]>).getFieldList() as AnyField[];
const str = (field: AnyField | undefined) => field as FieldMetadata<string>;
const num = (field: AnyField | undefined) => field as FieldMetadata<number>;

function PartFields({
  settingsKey,
  form,
  field,
}: {
  settingsKey: SettingsKey;
  form: ListForm;
  field: AnyField;
}) {
  switch (settingsKey) {
    case "scaling": {
      const f = fieldsetOf(field);
      return (
        <Group grow align="flex-start">
          <NumberField
            field={num(f.minInstances)}
            label="Minimum instances"
            min={0}
            max={50}
            clampBehavior="none"
          />
          <NumberField
            field={num(f.maxInstances)}
            label="Maximum instances"
            min={1}
            max={50}
            clampBehavior="none"
          />
          <NumberField
            field={num(f.targetCpuPercent)}
            label="Target CPU (%)"
            min={10}
            max={95}
            clampBehavior="none"
          />
        </Group>
      );
    }
    case "hardware": {
      const f = fieldsetOf(field);
      return (
        <Group grow align="flex-start">
          <SelectField field={str(f.cpu)} label="CPU" data={[...cpuChoices]} allowDeselect={false} />
          <NumberField
            field={num(f.memoryMb)}
            label="Memory (MB)"
            min={256}
            max={32_768}
            clampBehavior="none"
          />
        </Group>
      );
    }
    case "networking": {
      const f = fieldsetOf(field);
      return (
        <Stack gap="md">
          <Group grow align="flex-start">
            <NumberField field={num(f.port)} label="Port" min={1} max={65_535} clampBehavior="none" />
            <TextField field={str(f.customDomain)} label="Custom domain" placeholder="api.example.com" />
          </Group>
          <SwitchField
            field={f.public as FieldMetadata<boolean>}
            label="Public"
            description="Reachable from the internet."
          />
        </Stack>
      );
    }
    case "healthCheck": {
      const f = fieldsetOf(field);
      return (
        <Stack gap="md">
          <Group grow align="flex-start">
            <TextField field={str(f.path)} label="Path" />
            <NumberField field={num(f.port)} label="Port" min={1} max={65_535} clampBehavior="none" />
          </Group>
          <Group grow align="flex-start">
            <NumberField field={num(f.intervalSeconds)} label="Interval (seconds)" clampBehavior="none" />
            <NumberField field={num(f.timeoutSeconds)} label="Timeout (seconds)" clampBehavior="none" />
            <NumberField field={num(f.healthyThreshold)} label="Healthy threshold" clampBehavior="none" />
          </Group>
        </Stack>
      );
    }
    case "envvars":
      return (
        <ListFields
          form={form}
          field={field}
          title="Environment variables"
          note="Values may reference the environment's variables as ${NAME}."
          addLabel="Add variable"
          emptyRow={emptyRows.envvars}
          renderRow={(row, index) => {
            const f = fieldsetOf(row);
            return (
              <>
                <TextField field={str(f.name)} label={`Name ${index + 1}`} />
                <TextField field={str(f.value)} label={`Value ${index + 1}`} />
              </>
            );
          }}
        />
      );
    case "volumes":
      return (
        <ListFields
          form={form}
          field={field}
          title="Volumes"
          note="Persistent disks mounted into every instance."
          addLabel="Add volume"
          emptyRow={emptyRows.volumes}
          renderRow={(row, index) => {
            const f = fieldsetOf(row);
            return (
              <>
                <TextField field={str(f.name)} label={`Volume name ${index + 1}`} />
                <TextField field={str(f.mountPath)} label={`Mount path ${index + 1}`} />
                <NumberField field={num(f.sizeGb)} label={`Size (GB) ${index + 1}`} clampBehavior="none" />
              </>
            );
          }}
        />
      );
    case "schedule":
      return (
        <ListFields
          form={form}
          field={field}
          title="Schedule"
          note="Keep at least this many instances on these days between these times (UTC)."
          addLabel="Add rule"
          emptyRow={emptyRows.schedule}
          renderRow={(row, index) => {
            const f = fieldsetOf(row);
            const days = f.days as FieldMetadata<string[]>;
            return (
              <Stack gap="xs" style={{ flex: 1 }}>
                <Group gap="xs" role="group" aria-label={`Days of rule ${index + 1}`}>
                  {getCollectionProps(days, { type: "checkbox", options: [...weekdays] }).map(
                    ({ key, ...props }) => (
                      <Checkbox key={key} {...props} label={props.value} />
                    ),
                  )}
                </Group>
                {days.errors?.[0] ? (
                  <Text size="xs" c="red">
                    {days.errors[0]}
                  </Text>
                ) : null}
                <Group grow align="flex-start">
                  <TextField field={str(f.start)} label={`Start ${index + 1}`} placeholder="08:00" />
                  <TextField field={str(f.end)} label={`End ${index + 1}`} placeholder="18:00" />
                  <NumberField
                    field={num(f.minInstances)}
                    label={`Minimum instances ${index + 1}`}
                    clampBehavior="none"
                  />
                </Group>
              </Stack>
            );
          }}
        />
      );
  }
}

/** A list part (variables, volumes, schedule rules) with add and remove buttons that also work without JavaScript. */
function ListFields({
  form,
  field,
  title,
  note,
  addLabel,
  emptyRow,
  renderRow,
}: {
  form: ListForm;
  field: AnyField;
  title: string;
  note: string;
  addLabel: string;
  emptyRow: Record<string, unknown>;
  renderRow: (row: AnyField, index: number) => React.ReactNode;
}) {
  const rows = listOf(field);
  return (
    <Stack gap="sm">
      <Stack gap={2}>
        <Title order={3} size="h4">
          {title}
        </Title>
        <Text size="sm" c="dimmed">
          {note}
        </Text>
      </Stack>
      {field.errors?.[0] ? (
        <Text size="sm" c="red" role="alert">
          {field.errors[0]}
        </Text>
      ) : null}
      {rows.length ? null : (
        <Text size="sm" c="dimmed">
          None yet.
        </Text>
      )}
      {rows.map((row, index) => (
        <Group key={row.key} align="flex-end" wrap="nowrap" grow>
          {renderRow(row, index)}
          <Button
            // conform's list buttons submit the form with their intent; Mantine's are type="button" unless told.
            type="submit"
            variant="ghostSecondary"
            style={{ flexGrow: 0 }}
            aria-label={`Remove ${index + 1}`}
            {...form.remove.getButtonProps({ name: field.name, index })}
          >
            Remove
          </Button>
        </Group>
      ))}
      <Group>
        <Button
          type="submit"
          variant="secondary"
          {...form.insert.getButtonProps({ name: field.name, defaultValue: emptyRow as never })}
        >
          {addLabel}
        </Button>
      </Group>
    </Stack>
  );
}
