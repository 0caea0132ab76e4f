import { getFormProps, useForm } from "@conform-to/react";
import { getZodConstraint } from "@conform-to/zod/v4";
import { parseWithZod } from "@conform-to/zod/v4";
import { parseSubmission } from "~/components/parse-submission.server";
import { Button, Group, Stack, Text, Title } from "@mantine/core";
import {
  data,
  redirect,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
  type LinksFunction,
} from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useState } from "react";
import * as z from "zod";
import { onboardingPages } from "~/features/onboarding/paths";
import {
  suggestTenantName,
  tenantDisplayNameSchema,
  tenantNameSchema,
  tenantPaths,
  tenantResponseSchema,
} from "#contract/tenants";
import { refreshSessionTokens } from "~/auth/auth.server";
import { FormErrors, TextField } from "~/components/forms";
import { rejectSubmission } from "~/platform/action-errors.server";
import { requirePlatformClient } from "~/platform/request.server";
import { mantineShellSheet, mantineFormsSheet } from "~/styles/mantine-sheets";

export const links: LinksFunction = () => [mantineShellSheet, mantineFormsSheet];

export const meta: MetaFunction = () => [{ title: "Create organization · Cloud Console" }];

/**
 * The form's fields are flat; the platform receives them as `{ tenant: { name, displayName } }`. The identifier
 * may be left empty: it is then made from the name, by the rule the form follows as the user types.
 */
const schema = z.object({ displayName: tenantDisplayNameSchema, name: tenantNameSchema.optional() });

export async function loader({ request }: LoaderFunctionArgs) {
  const { user, headers } = await requirePlatformClient(request);
  return data({ user: { name: user.name, email: user.email } }, { headers });
}

export async function action({ request }: ActionFunctionArgs) {
  const { api, session, headers, saveSession } = await requirePlatformClient(request);
  const submission = parseSubmission(await request.formData(), { schema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400, headers });
  let organizationId: string;
  try {
    const { displayName, name } = submission.value;
    const { tenant } = await api.post(tenantPaths.create(), tenantResponseSchema, {
      tenant: { displayName, name: name ?? suggestTenantName(displayName) },
    });
    organizationId = tenant.organizationId;
  } catch (error) {
    return rejectSubmission(submission, error, headers, { fieldPrefix: "tenant." });
  }
  // New tokens carry the new organization in the identity token's organizations claim.
  await refreshSessionTokens(session);
  session.set("organizationId", organizationId);
  session.unset("environment");
  await saveSession();
  // The platform started the new organization's onboarding: its walk-through opens (decision 039).
  throw redirect(onboardingPages.walkThrough, { headers });
}

export default function CreateOrganization() {
  const { user } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const navigation = useNavigation();
  const [form, fields] = useForm({
    lastResult,
    constraint: getZodConstraint(schema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  // The identifier follows the name until the user writes one of their own (emptying it lets it follow again).
  const [identifierOwn, setIdentifierOwn] = useState(() => {
    const identifier = fields.name.initialValue ?? "";
    return identifier !== "" && identifier !== suggestTenantName(fields.displayName.initialValue ?? "");
  });
  return (
    <Stack gap="md">
      <SignedInAs user={user} />
      <Title order={2}>Create your organization</Title>
      <Text c="dimmed">Your organization holds your team, its environments and the services you deploy.</Text>
      <Form method="post" {...getFormProps(form)}>
        <Stack gap="md">
          <FormErrors errors={form.errors} id={form.errorId} />
          <TextField
            field={fields.displayName}
            label="Organization name"
            autoComplete="organization"
            onChange={(event) => {
              if (identifierOwn) return;
              form.update({ name: fields.name.name, value: suggestTenantName(event.currentTarget.value) });
            }}
          />
          <TextField
            field={fields.name}
            label="Identifier"
            description="Lowercase letters, digits and hyphens; it names your organization in addresses. Left empty, it is made from the name."
            autoComplete="off"
            onChange={(event) => setIdentifierOwn(event.currentTarget.value !== "")}
          />
          <Button type="submit" loading={navigation.state === "submitting"}>
            Create organization
          </Button>
        </Stack>
      </Form>
    </Stack>
  );
}

/** Outside the app shell there is no user menu: who is signed in, and a way out (for another account, say). */
function SignedInAs({ user }: { user: { name: string; email: string } }) {
  return (
    <Group justify="space-between" gap="sm" wrap="nowrap">
      <Text size="sm" c="dimmed" data-testid="signed-in-as">
        Signed in as{" "}
        <Text span fw={600} c="dark">
          {user.name}
        </Text>{" "}
        ({user.email})
      </Text>
      <Form method="post" action="/auth/logout" reloadDocument>
        <Button type="submit" variant="subtle" size="compact-sm">
          Logout
        </Button>
      </Form>
    </Group>
  );
}
