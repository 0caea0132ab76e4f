import {
  getFormProps,
  getInputProps,
  getSelectProps,
  useForm,
  type SubmissionResult,
} from "@conform-to/react";
import { getZodConstraint } from "@conform-to/zod/v4";
import { parseWithZod } from "@conform-to/zod/v4";
import { NativeSelect, Stack, TextInput } from "@mantine/core";
import { Form } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { awsRegions, isAwsRegionCode } from "#contract/aws-regions";
import { AWS_ACCOUNT_ID_LABEL, AWS_REGION_LABEL } from "#contract/tools";
import { Button } from "~/components/button";
import { ACCOUNT_ID_DEBOUNCE_MS, accountIdTypingError, connectAwsAccountSchema } from "./connect-form";
import { jobStorage } from "./job-storage";

const regionOptions = [
  { value: "", label: "Select a region", disabled: true },
  ...awsRegions.map((region) => ({ value: region.code, label: `${region.label} (${region.code})` })),
];

/**
 * SPEC §2.3, §5: the account id (checked 500 ms after typing stops, and on submit; emptying the field clears
 * its error), the region from the AWS catalogue, and Connect, loading while the job is created.
 */
export function AwsConnectForm({
  lastResult,
  submitting,
}: {
  lastResult: SubmissionResult<string[]> | null | undefined;
  submitting: boolean;
}) {
  const [form, fields] = useForm({
    lastResult,
    constraint: getZodConstraint(connectAwsAccountSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: connectAwsAccountSchema }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onSubmit",
  });
  /** The check while typing; undefined shows the errors of the last submit instead. */
  const [typingError, setTypingError] = useState<string | null | undefined>(undefined);
  const typingTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(typingTimer.current), []);

  const regionName = fields.awsAccountRegion.name;
  const { update } = form;
  useEffect(() => {
    // The region of an earlier attempt is remembered (SPEC §3 iac-region).
    const stored = jobStorage.region();
    if (stored && isAwsRegionCode(stored)) update({ name: regionName, value: stored });
  }, [update, regionName]);

  const formProps = getFormProps(form);
  const { key: accountIdKey, ...accountIdProps } = getInputProps(fields.awsAccountID, { type: "text" });
  const { key: regionKey, ...regionProps } = getSelectProps(fields.awsAccountRegion);

  return (
    <Form
      method="post"
      {...formProps}
      onSubmit={(event) => {
        clearTimeout(typingTimer.current);
        setTypingError(undefined);
        formProps.onSubmit(event);
      }}
    >
      <Stack gap="md">
        <TextInput
          key={accountIdKey}
          {...accountIdProps}
          label={AWS_ACCOUNT_ID_LABEL}
          placeholder="123456789012"
          description="The 12-digit number of the account to generate Terraform for."
          inputMode="numeric"
          autoComplete="off"
          error={typingError !== undefined ? typingError : fields.awsAccountID.errors?.[0]}
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
        <NativeSelect
          key={regionKey}
          {...regionProps}
          // Without a value the browser would pick the first region; the placeholder asks for a choice.
          defaultValue={regionProps.defaultValue ?? ""}
          label={AWS_REGION_LABEL}
          data={regionOptions}
          error={fields.awsAccountRegion.errors?.[0]}
        />
        <Button type="submit" loading={submitting}>
          Connect
        </Button>
      </Stack>
    </Form>
  );
}
