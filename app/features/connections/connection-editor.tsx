import { getFormProps, getInputProps, useForm, type FieldMetadata } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Anchor, Group, Stack, Text, TextInput } from "@mantine/core";
import { Form, Link, useNavigation } from "@remix-run/react";
import { Fragment, useEffect, useRef, useState } from "react";
import { awsRegions } from "#contract/aws-regions";
import { gcpRegions } from "#contract/cloud-providers";
import {
  connectionPages,
  datadogSites,
  methodOf,
  type ConnectionField,
  type ConnectionKind,
} from "#contract/connections";
import { Button } from "~/components/button";
import { FormErrors, SelectField, TextareaField, TextField } from "~/components/forms";
import { ACCOUNT_ID_DEBOUNCE_MS } from "~/features/terraform/connect-form";
import { AwsRoleSetup, type RoleSetup } from "./aws-role-setup";
import { secretHint } from "./catalogue";
import {
  accountIdTypingError,
  connectionFormSchema,
  initialFormValues,
  type SaveConnectionResult,
  type SaveIntent,
} from "./connection-form";

/** The organization's connections a field can point at (an ECR registry through an AWS connection). */
export type ConnectionChoices = Record<
  "aws-connections" | "github-connections",
  { value: string; label: string }[]
>;

type EditedConnection = {
  name: string;
  method: string;
  fields: Record<string, string>;
  secrets: Record<string, { lastFour: string | null }>;
};

type FormValues = { name: string; kind: string; method: string; fields: Record<string, string> };

const regionOptions = awsRegions.map((region) => ({
  value: region.code,
  label: `${region.label} (${region.code})`,
}));
const locationOptions = gcpRegions.map((region) => ({
  value: region.code,
  label: `${region.label} (${region.code})`,
}));

/**
 * The fields of a kind's method (SPEC §3), saved with a check against the provider. A refused check shows the
 * provider's answer and offers 'Save without verifying'; what was typed stays in the form (secret values are never
 * sent back by the server: the browser keeps them). On an edit, secret fields start empty and empty keeps them.
 */
export function ConnectionEditor({
  mode,
  kind,
  methodId,
  connection,
  choices,
  roleSetup,
  actionData,
  cancelTo,
}: {
  mode: "create" | "edit";
  kind: ConnectionKind;
  methodId: string;
  connection?: EditedConnection;
  choices: ConnectionChoices;
  roleSetup: RoleSetup | null;
  actionData: SaveConnectionResult | undefined;
  cancelTo: string;
}) {
  const navigation = useNavigation();
  const schema = connectionFormSchema(mode);
  const [form, fields] = useForm<FormValues>({
    id: `connection-${kind}-${methodId}`,
    lastResult: navigation.state === "idle" ? actionData?.result : null,
    defaultValue: initialFormValues(kind, methodId, connection),
    onValidate: ({ formData }) => parseWithZod(formData, { schema, disableAutoCoercion: true }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  const values = fields.fields.getFieldset();
  const method = methodOf(kind, methodId);
  const submitting = navigation.state === "submitting";
  const intent = navigation.formData?.get("intent");
  const offerUnverified = Boolean(actionData?.checkFailed);
  // Editing a connection keeps the method it was saved with unless another is chosen: its secrets are then new.
  const keepsSecrets = mode === "edit" && connection?.method === methodId;
  const [submits, setSubmits] = useState(0);
  const formProps = getFormProps(form);

  return (
    <Form
      method="post"
      {...formProps}
      onSubmit={(event) => {
        setSubmits((count) => count + 1);
        formProps.onSubmit(event);
      }}
    >
      <Stack gap="md">
        <FormErrors errors={form.errors} id={form.errorId} />
        {offerUnverified ? (
          <Text size="sm" data-testid="check-failed-help">
            Fix what the provider refused and save again, or save without verifying: the connection is then
            saved with the refused check and marked failing until a test succeeds.
          </Text>
        ) : null}
        <input {...getInputProps(fields.kind, { type: "hidden" })} key={fields.kind.key} />
        <input {...getInputProps(fields.method, { type: "hidden" })} key={fields.method.key} />
        <TextField
          field={fields.name}
          label="Name"
          description="How your team will recognise it, for example Production account."
          autoComplete="off"
        />
        {method?.fields.map((field) => (
          <Fragment key={field.name}>
            <ConnectionFieldInput
              field={field}
              meta={values[field.name] as FieldMetadata<string>}
              choices={choices}
              storedSecret={keepsSecrets ? connection?.secrets[field.name] : undefined}
              submits={submits}
            />
            {/* The role's field says where the role comes from: the stack, right below it. */}
            {field.name === "ROLE_ARN" && roleSetup ? <AwsRoleSetup setup={roleSetup} /> : null}
          </Fragment>
        ))}
        <Group justify="flex-end">
          <Button component={Link} to={cancelTo} variant="secondary">
            Cancel
          </Button>
          {offerUnverified ? (
            <Button
              type="submit"
              name="intent"
              value={"save-unverified" satisfies SaveIntent}
              variant="secondary"
              loading={submitting && intent === "save-unverified"}
            >
              Save without verifying
            </Button>
          ) : null}
          <Button
            type="submit"
            name="intent"
            value={"save" satisfies SaveIntent}
            loading={submitting && intent !== "save-unverified"}
          >
            {mode === "create" ? "Connect" : "Save"}
          </Button>
        </Group>
      </Stack>
    </Form>
  );
}

/** One field: a select for a list choice, a password input for a secret, a text area for a JSON key. */
function ConnectionFieldInput({
  field,
  meta,
  choices,
  storedSecret,
  submits,
}: {
  field: ConnectionField;
  meta: FieldMetadata<string>;
  choices: ConnectionChoices;
  storedSecret: { lastFour: string | null } | undefined;
  submits: number;
}) {
  const placeholder = field.placeholder ?? field.defaultValue;
  const description = storedSecret
    ? `${secretHint(storedSecret)}. Leave empty to keep the current value.`
    : field.description;
  switch (field.options) {
    case "aws-regions":
    case "gcp-regions":
      return (
        <SelectField
          field={meta}
          label={field.label}
          description={description}
          data={field.options === "aws-regions" ? regionOptions : locationOptions}
          placeholder="Choose from the list"
          searchable
          allowDeselect={false}
          nothingFoundMessage="Nothing matches"
        />
      );
    case "aws-connections":
    case "github-connections": {
      const options = choices[field.options];
      const needed = field.options === "aws-connections" ? "an AWS account" : "GitHub";
      return (
        <Stack gap={4}>
          <SelectField
            field={meta}
            label={field.label}
            description={description}
            data={options}
            placeholder={options.length ? "Choose a connection" : "None yet"}
            allowDeselect={false}
          />
          {options.length === 0 ? (
            <Text size="sm">
              Connect{" "}
              <Anchor
                component={Link}
                to={connectionPages.create(
                  field.options === "aws-connections" ? "cloud-provider" : "github-app",
                )}
              >
                {needed}
              </Anchor>{" "}
              first, or choose another method.
            </Text>
          ) : null}
        </Stack>
      );
    }
    case "datadog-sites":
      // A site from the list, or any URL (a proxy, a test server): suggestions rather than a closed list.
      return (
        <>
          <TextField
            field={meta}
            label={field.label}
            description={description ?? "Your Datadog site's API address."}
            placeholder={placeholder}
            list={`${meta.id}-sites`}
            autoComplete="off"
          />
          <datalist id={`${meta.id}-sites`}>
            {datadogSites.map((site) => (
              <option key={site.value} value={site.value} label={site.label} />
            ))}
          </datalist>
        </>
      );
    case undefined:
      break;
  }
  if (field.multiline) {
    return (
      <TextareaField
        field={meta}
        label={field.label}
        description={description}
        placeholder={placeholder}
        autosize
        minRows={4}
        maxRows={12}
        spellCheck={false}
        autoComplete="off"
        styles={{ input: { fontFamily: "var(--mantine-font-family-monospace)" } }}
      />
    );
  }
  if (field.name === "ACCOUNT_ID") {
    return <AccountIdInput field={field} meta={meta} description={description} submits={submits} />;
  }
  return (
    <TextField
      field={meta}
      label={field.label}
      description={description}
      placeholder={placeholder}
      type={field.secret ? "password" : "text"}
      autoComplete={field.secret ? "new-password" : "off"}
      spellCheck={false}
    />
  );
}

/** The account id, checked 500 ms after typing stops (SPEC §5), like the AWS connect page. */
function AccountIdInput({
  field,
  meta,
  description,
  submits,
}: {
  field: ConnectionField;
  meta: FieldMetadata<string>;
  description: string | undefined;
  /** How many times the form was submitted. */
  submits: number;
}) {
  /** The check while typing; undefined shows conform's errors (of a blur or a submit) instead. */
  const [typingError, setTypingError] = useState<string | null | undefined>(undefined);
  const typingTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(typingTimer.current), []);
  // A submit's answer replaces what typing said.
  useEffect(() => setTypingError(undefined), [submits]);
  const { key, ...inputProps } = getInputProps(meta, { type: "text" });
  return (
    <TextInput
      key={key}
      {...inputProps}
      label={field.label}
      description={description ?? "The 12-digit number of the account."}
      placeholder={field.placeholder}
      inputMode="numeric"
      autoComplete="off"
      error={typingError !== undefined ? typingError : meta.errors?.[0]}
      onChange={(event) => {
        const value = event.currentTarget.value;
        clearTimeout(typingTimer.current);
        if (value.trim() === "") {
          setTypingError(null);
          return;
        }
        typingTimer.current = setTimeout(
          () => setTypingError(accountIdTypingError(value)),
          ACCOUNT_ID_DEBOUNCE_MS,
        );
      }}
    />
  );
}
