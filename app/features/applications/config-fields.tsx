import { useFormMetadata, type FieldMetadata } from "@conform-to/react";
import { Link } from "@remix-run/react";
import { useEffect, useRef } from "react";
import {
  ActionIcon,
  Anchor,
  Button,
  Fieldset,
  Group,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Text,
} from "@mantine/core";
import {
  APPLICATION_DOMAIN_DESCRIPTION,
  applicationCpuChoices,
  applicationMemoryChoicesMb,
  applicationVariableKinds,
  memoryRangeByCpuMb,
  portProtocols,
  type ApplicationConfig,
} from "#contract/application-config";
import { NumberField, SelectField, SwitchField, TextField } from "~/components/forms";
import { servicePagePaths } from "~/features/services/paths";
import { certificateLabel, useCertificateMatch } from "./certificate-match";

type Field<T> = FieldMetadata<T, Record<string, unknown>, string[]>;
// conform's fieldsets are typed by the schema's union members; the fields below read them by name.
type AnyField = Field<never>;
const fieldsetOf = <Name extends string>(field: AnyField | Field<ApplicationConfig>) =>
  (field as unknown as Field<Record<string, unknown>>).getFieldset() as unknown as Record<Name, AnyField>;
const listOf = (field: AnyField) =>
  (field as unknown as Field<unknown[]>).getFieldList() as unknown as AnyField[];

const variableKindLabels: Record<(typeof applicationVariableKinds)[number], string> = {
  value: "Plain value",
  variable: "Environment variable",
  attribute: "Another service's attribute",
};

/** Everything but the source: ports, variables, size, scaling, health check, domain, pre-deploy, sidecars. */
export function RuntimeFields({
  config,
  environmentName,
  serviceNames,
  sidecarsEnabled,
}: {
  config: Field<ApplicationConfig>;
  environmentName: string;
  serviceNames: string[];
  sidecarsEnabled: boolean;
}) {
  const form = useFormMetadata(config.formId);
  const fields = fieldsetOf<
    | "ports"
    | "envvars"
    | "cpu"
    | "memoryMb"
    | "scaling"
    | "healthCheck"
    | "domain"
    | "preDeployCommand"
    | "sidecars"
  >(config);
  const cpu = (fields.cpu.value as string | undefined) ?? "0.5";
  const [minMb, maxMb] = memoryRangeByCpuMb[cpu as keyof typeof memoryRangeByCpuMb] ?? [512, 30_720];
  const scaling = fieldsetOf<"mode" | "replicas" | "minReplicas" | "maxReplicas" | "targetCpuPercent">(
    fields.scaling,
  );
  const scalingMode = (scaling.mode.value as string | undefined) ?? "fixed";
  const health = fieldsetOf<
    "path" | "port" | "intervalSeconds" | "timeoutSeconds" | "healthyThreshold" | "unhealthyThreshold"
  >(fields.healthCheck);
  const domain = fieldsetOf<"host" | "certificateId">(fields.domain);
  // conform's list buttons submit the form with their intent (handled in the browser, or by the action without
  // JavaScript); their props carry no type, and Mantine's buttons are type="button" unless told.
  const addButton = (field: AnyField, label: string, defaultValue: unknown) => (
    <Button
      type="submit"
      variant="light"
      size="xs"
      {...form.insert.getButtonProps({ name: field.name, defaultValue: defaultValue as never })}
    >
      {label}
    </Button>
  );
  const removeButton = (field: AnyField, index: number, label: string) => (
    <ActionIcon
      type="submit"
      variant="subtle"
      color="red"
      aria-label={label}
      {...form.remove.getButtonProps({ name: field.name, index })}
    >
      ×
    </ActionIcon>
  );

  return (
    <Stack gap="md">
      <Fieldset legend="Ports">
        <Stack gap="xs">
          {listOf(fields.ports).map((port, index) => {
            const each = fieldsetOf<"port" | "protocol" | "public">(port);
            return (
              <Group key={port.key} align="flex-start" wrap="nowrap">
                <NumberField field={each.port} label="Port" clampBehavior="none" min={1} max={65_535} />
                <SelectField
                  field={each.protocol}
                  label="Protocol"
                  data={[...portProtocols]}
                  allowDeselect={false}
                />
                <SwitchField field={each.public} label="Public" mt={30} />
                {removeButton(fields.ports, index, `Remove port ${index + 1}`)}
              </Group>
            );
          })}
          {fields.ports.errors && (
            <Text c="red" size="sm">
              {fields.ports.errors[0]}
            </Text>
          )}
          <Group>{addButton(fields.ports, "Add port", { port: "", protocol: "HTTP" })}</Group>
        </Stack>
      </Fieldset>

      <Fieldset legend="Environment variables">
        <Stack gap="xs">
          {listOf(fields.envvars).map((variable, index) => {
            const each = fieldsetOf<"kind" | "name" | "value" | "variable" | "service" | "attribute">(
              variable,
            );
            const kind = (each.kind.value as string | undefined) ?? "value";
            return (
              <Group key={variable.key} align="flex-start" wrap="nowrap">
                <SelectField
                  field={each.kind}
                  label="Kind"
                  data={applicationVariableKinds.map((value) => ({
                    value,
                    label: variableKindLabels[value],
                  }))}
                  allowDeselect={false}
                  w={200}
                />
                <TextField field={each.name} label="Name" autoComplete="off" />
                {kind === "value" && <TextField field={each.value} label="Value" autoComplete="off" />}
                {kind === "variable" && (
                  <TextField
                    field={each.variable}
                    label="Environment variable"
                    description="Its name, resolved at deployment"
                    autoComplete="off"
                  />
                )}
                {kind === "attribute" && (
                  <>
                    <SelectField field={each.service} label="Service" data={serviceNames} searchable />
                    <TextField
                      field={each.attribute}
                      label="Attribute"
                      description="Such as connectionString"
                      autoComplete="off"
                    />
                  </>
                )}
                {removeButton(fields.envvars, index, `Remove variable ${index + 1}`)}
              </Group>
            );
          })}
          {fields.envvars.errors && (
            <Text c="red" size="sm">
              {fields.envvars.errors[0]}
            </Text>
          )}
          <Group>{addButton(fields.envvars, "Add variable", { kind: "value", name: "", value: "" })}</Group>
        </Stack>
      </Fieldset>

      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
        <SelectField
          field={fields.cpu}
          label="CPU (vCPU)"
          data={[...applicationCpuChoices]}
          allowDeselect={false}
          onChange={(value) => {
            // Each CPU size allows its own memory: keep the memory inside the new range.
            const range = memoryRangeByCpuMb[value as keyof typeof memoryRangeByCpuMb];
            const memory = Number(fields.memoryMb.value);
            if (range && !(memory >= range[0] && memory <= range[1])) {
              form.update({ name: fields.memoryMb.name, value: String(range[0]) as never });
            }
          }}
        />
        <SelectField
          field={fields.memoryMb}
          label="Memory (MB)"
          data={applicationMemoryChoicesMb.filter((mb) => mb >= minMb && mb <= maxMb).map((mb) => String(mb))}
          allowDeselect={false}
        />
      </SimpleGrid>

      <Fieldset legend="Scaling">
        <Stack gap="xs">
          <input type="hidden" name={scaling.mode.name} value={scalingMode} form={config.formId} />
          <SegmentedControl
            aria-label="Scaling"
            value={scalingMode}
            data={[
              { value: "fixed", label: "Fixed replicas" },
              { value: "autoscaling", label: "Autoscaling" },
            ]}
            onChange={(mode) =>
              form.update({
                name: fields.scaling.name,
                value: (mode === "fixed"
                  ? { mode, replicas: "1" }
                  : { mode, minReplicas: "1", maxReplicas: "3", targetCpuPercent: "70" }) as never,
              })
            }
          />
          {scalingMode === "fixed" ? (
            <NumberField field={scaling.replicas} label="Replicas" clampBehavior="none" min={1} max={50} />
          ) : (
            <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md">
              <NumberField field={scaling.minReplicas} label="Minimum replicas" clampBehavior="none" />
              <NumberField field={scaling.maxReplicas} label="Maximum replicas" clampBehavior="none" />
              <NumberField field={scaling.targetCpuPercent} label="Target CPU (%)" clampBehavior="none" />
            </SimpleGrid>
          )}
        </Stack>
      </Fieldset>

      <Fieldset legend="Health check">
        <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md">
          <TextField field={health.path} label="Path" autoComplete="off" />
          <NumberField field={health.port} label="Port" clampBehavior="none" />
          <NumberField field={health.intervalSeconds} label="Interval (seconds)" clampBehavior="none" />
          <NumberField field={health.timeoutSeconds} label="Timeout (seconds)" clampBehavior="none" />
          <NumberField field={health.healthyThreshold} label="Healthy threshold" clampBehavior="none" />
          <NumberField field={health.unhealthyThreshold} label="Unhealthy threshold" clampBehavior="none" />
        </SimpleGrid>
      </Fieldset>

      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
        <TextField
          field={domain.host}
          label="Domain"
          description={APPLICATION_DOMAIN_DESCRIPTION}
          autoComplete="off"
        />
        <CertificateField
          environmentName={environmentName}
          host={(domain.host.value as string | undefined) ?? ""}
          field={domain.certificateId as Field<string>}
        />
      </SimpleGrid>
      <TextField
        field={fields.preDeployCommand}
        label="Pre-deploy command"
        description="Optional: run once before the new version's pods replace the old ones (migrations)"
        autoComplete="off"
      />

      {sidecarsEnabled && (
        <Fieldset legend="Sidecar containers">
          <Stack gap="xs">
            {listOf(fields.sidecars).map((sidecar, index) => {
              const each = fieldsetOf<"name" | "image" | "cpu" | "memoryMb" | "command">(sidecar);
              return (
                <Group key={sidecar.key} align="flex-start" wrap="nowrap">
                  <TextField field={each.name} label="Name" autoComplete="off" />
                  <TextField field={each.image} label="Image" autoComplete="off" />
                  <SelectField field={each.cpu} label="CPU" data={[...applicationCpuChoices]} w={90} />
                  <SelectField
                    field={each.memoryMb}
                    label="Memory (MB)"
                    data={applicationMemoryChoicesMb.map(String)}
                    w={120}
                  />
                  <TextField field={each.command} label="Command" autoComplete="off" />
                  {removeButton(fields.sidecars, index, `Remove sidecar ${index + 1}`)}
                </Group>
              );
            })}
            <Group>
              {addButton(fields.sidecars, "Add sidecar", {
                name: "",
                image: "",
                cpu: "0.25",
                memoryMb: "512",
                command: "",
              })}
            </Group>
          </Stack>
        </Fieldset>
      )}
    </Stack>
  );
}

/**
 * The TLS certificate for the domain: looked up as the domain is typed (GET certificates/match) and offered, chosen
 * for the user when none is chosen yet; with none, the field says so and what to do.
 */
function CertificateField({
  environmentName,
  host,
  field,
}: {
  environmentName: string;
  host: string;
  field: Field<string>;
}) {
  const form = useFormMetadata(field.formId);
  const { answer, loading } = useCertificateMatch(environmentName, host);
  const current = field.value ?? "";
  const matched = answer?.kind === "match" ? answer.certificate : null;
  // Chosen for the user when a look-up answers with one and none is chosen: only then, so a form being reset
  // (after a save) is not changed again by an earlier answer.
  const latest = useRef({ current, form, name: field.name });
  latest.current = { current, form, name: field.name };
  useEffect(() => {
    const { current: chosen, form: owner, name } = latest.current;
    if (matched && !chosen) owner.update({ name, value: matched.id as never });
  }, [matched]);
  const data = [
    ...(matched ? [{ value: matched.id, label: certificateLabel(matched) }] : []),
    ...(current && current !== matched?.id ? [{ value: current, label: current }] : []),
  ];
  const parent = host.slice(host.indexOf(".") + 1);
  const createTls = (
    <Anchor component={Link} to={servicePagePaths.create(environmentName, "tls")} size="xs">
      Create a TLS certificate
    </Anchor>
  );
  let description: React.ReactNode =
    "Needed with a domain: typing one looks up the certificate that covers it";
  if (loading) description = "Looking up the certificate that covers the domain…";
  else if (answer?.kind === "match") {
    description = `Covers ${host}: ${certificateLabel(answer.certificate)}`;
  } else if (answer?.kind === "none") {
    description = (
      <span data-testid="certificate-none">
        No certificate of this environment covers {host}.{" "}
        {answer.wildcard ? `${answer.wildcard.domain} covers its subdomains, not ${host} itself. ` : ""}
        {createTls} for {host}
        {parent.includes(".") ? ` or *.${parent}` : ""} in this environment, then choose it here.
      </span>
    );
  } else if (answer?.kind === "error") description = `Could not look up a certificate: ${answer.message}`;
  return (
    <SelectField
      // Remounted when the form resets it (after a save): its input control would otherwise keep the old choice.
      key={field.key}
      field={field}
      label="TLS certificate"
      description={description}
      data={data}
      placeholder={host ? (data.length ? "Choose" : "None covers the domain") : "Type a domain first"}
      allowDeselect
      clearable
      nothingFoundMessage="No certificate covers the domain"
    />
  );
}
