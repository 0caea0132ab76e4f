import { useField, useFormMetadata, type FieldMetadata } from "@conform-to/react";
import { Input, SegmentedControl, SimpleGrid, Stack, Textarea } from "@mantine/core";
import { getTextareaProps } from "@conform-to/react";
import { useEffect, useState } from "react";
import {
  applicationSourceKinds,
  applicationSourceLabels,
  defaultApplicationSources,
  type ApplicationSource,
  type ApplicationSourceKind,
} from "#contract/application-config";
import { SelectField, TextField } from "~/components/forms";
import { useSourceOptions, type SourceList } from "./source-options";

type Field<T> = FieldMetadata<T, Record<string, unknown>, string[]>;
type Choice = { value: string; label: string };

export type SourceChoices = {
  registryConnections: Choice[];
  githubConnections: Choice[];
  /** Empty while the private-chart-apps flag is off: the Helm chart source is then not offered. */
  chartRepositories: Choice[] | null;
};

/** Where the application's image comes from: one of the four sources, each with its own fields. */
export function SourceFields({
  source,
  environmentName,
  choices,
}: {
  source: Field<ApplicationSource>;
  environmentName: string;
  choices: SourceChoices;
}) {
  const form = useFormMetadata(source.formId);
  // The fieldset of whichever source is chosen: each source's fields are read by name.
  type SourceFieldName =
    | "kind"
    | "image"
    | "connectionId"
    | "repository"
    | "tag"
    | "branch"
    | "dockerfilePath"
    | "buildContext"
    | "chartRepositoryId"
    | "chart"
    | "version"
    | "values";
  const fields = (source as unknown as Field<Record<string, unknown>>).getFieldset() as unknown as Record<
    SourceFieldName,
    Field<string>
  >;
  const kind = (fields.kind.value ?? "image") as ApplicationSourceKind;
  const offered = applicationSourceKinds.filter((each) => each !== "helm" || choices.chartRepositories);
  const value = (name: SourceFieldName) => fields[name].value ?? "";
  return (
    <Stack gap="md">
      <Input.Wrapper label="Source" id={fields.kind.id}>
        <input type="hidden" name={fields.kind.name} value={kind} form={source.formId} />
        <SegmentedControl
          fullWidth
          aria-label="Source"
          value={kind}
          data={offered.map((each) => ({ value: each, label: applicationSourceLabels[each] }))}
          onChange={(next) =>
            form.update({
              name: source.name,
              value: defaultApplicationSources[next as ApplicationSourceKind] as never,
            })
          }
        />
      </Input.Wrapper>
      {kind === "image" && (
        <TextField
          key="image"
          field={fields.image}
          label="Image"
          description="A public image reference such as nginx:1.27 or ghcr.io/org/app:tag"
          autoComplete="off"
        />
      )}
      {kind === "registry" && (
        <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md">
          <SelectField
            field={fields.connectionId}
            label="Registry"
            data={choices.registryConnections}
            placeholder={choices.registryConnections.length ? "Choose" : "No registry connected"}
            allowDeselect={false}
          />
          <ListedField
            field={fields.repository}
            label="Repository"
            environmentName={environmentName}
            list="repositories"
            query={value("connectionId") ? { connectionId: value("connectionId") } : null}
          />
          <ListedField
            field={fields.tag}
            label="Tag"
            environmentName={environmentName}
            list="tags"
            query={
              value("connectionId") && value("repository")
                ? { connectionId: value("connectionId"), repository: value("repository") }
                : null
            }
          />
        </SimpleGrid>
      )}
      {kind === "github" && (
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          <SelectField
            field={fields.connectionId}
            label="GitHub connection"
            data={choices.githubConnections}
            placeholder={choices.githubConnections.length ? "Choose" : "No GitHub connection"}
            allowDeselect={false}
          />
          <ListedField
            field={fields.repository}
            label="Repository"
            environmentName={environmentName}
            list="repositories"
            query={value("connectionId") ? { connectionId: value("connectionId") } : null}
          />
          <ListedField
            field={fields.branch}
            label="Branch"
            environmentName={environmentName}
            list="branches"
            query={
              value("connectionId") && value("repository")
                ? { connectionId: value("connectionId"), repository: value("repository") }
                : null
            }
          />
          <TextField field={fields.dockerfilePath} label="Dockerfile path" autoComplete="off" />
          <TextField
            field={fields.buildContext}
            label="Build context"
            description="The directory sent to the build; . for the repository's root"
            autoComplete="off"
          />
        </SimpleGrid>
      )}
      {kind === "helm" && choices.chartRepositories && (
        <Stack gap="md">
          <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md">
            <SelectField
              field={fields.chartRepositoryId}
              label="Chart repository"
              data={choices.chartRepositories}
              placeholder={choices.chartRepositories.length ? "Choose" : "No chart repository"}
              allowDeselect={false}
            />
            <ListedField
              field={fields.chart}
              label="Chart"
              environmentName={environmentName}
              list="charts"
              query={value("chartRepositoryId") ? { chartRepositoryId: value("chartRepositoryId") } : null}
            />
            <ListedField
              field={fields.version}
              label="Chart version"
              environmentName={environmentName}
              list="chart-versions"
              query={
                value("chartRepositoryId") && value("chart")
                  ? { chartRepositoryId: value("chartRepositoryId"), chart: value("chart") }
                  : null
              }
            />
          </SimpleGrid>
          <HelmValuesField field={fields.values} />
        </Stack>
      )}
    </Stack>
  );
}

/**
 * A name chosen from what the provider lists (a repository, a tag, a branch, a chart, a version); the field says
 * why when the provider gives no list, and a name can still be typed (a tag pushed a moment ago).
 */
function ListedField({
  field,
  label,
  environmentName,
  list,
  query,
}: {
  field: Field<string>;
  label: string;
  environmentName: string;
  list: SourceList;
  query: Record<string, string> | null;
}) {
  const { options, error, loading } = useSourceOptions(environmentName, list, query);
  // Read from the field, not a second input control: two controls of one input swallow each other's changes.
  const current = field.value ?? "";
  const data = current && !options.includes(current) ? [current, ...options] : options;
  return (
    <SelectField
      field={field}
      label={label}
      data={data}
      searchable
      disabled={!query}
      placeholder={loading ? "Loading…" : query ? "Choose" : undefined}
      description={error ? `Could not list: ${error}` : undefined}
      allowDeselect={false}
      nothingFoundMessage="Nothing listed"
    />
  );
}

/** The chart's values as YAML, checked as typed with the YAML parser loaded only when this field shows. */
function HelmValuesField({ field }: { field: Field<string> }) {
  const [meta] = useField<string>(field.name, { formId: field.formId });
  const text = meta.value ?? "";
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => {
    let current = true;
    void import("#contract/helm-values").then(({ helmValuesProblem }) => {
      if (current) setProblem(helmValuesProblem(text));
    });
    return () => {
      current = false;
    };
  }, [text]);
  const { key, ...props } = getTextareaProps(field);
  return (
    <Textarea
      key={key}
      {...props}
      label="Values (YAML)"
      description="Empty for the chart's defaults"
      autosize
      minRows={4}
      maxRows={16}
      styles={{ input: { fontFamily: "var(--mantine-font-family-monospace)" } }}
      error={field.errors?.[0] ?? problem ?? undefined}
    />
  );
}
