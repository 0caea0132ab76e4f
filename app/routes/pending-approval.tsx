import { Button, Stack, Text, Title } from "@mantine/core";
import { data, redirect, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useLoaderData } from "@remix-run/react";
import { errorMessages } from "#contract/errors";
import { tenantPaths, tenantResponseSchema } from "#contract/tenants";
import { BrandedLayout } from "~/components/branded-layout";
import { getEnv } from "~/env.server";
import { isPlatformError } from "~/platform/client.server";
import { requireOrganizationClient } from "~/platform/request.server";

export const meta: MetaFunction = () => [{ title: "Welcome · Cloud Console" }];

/** SPEC §2.5: shown while the organization's tenant waits for approval; once approved, straight into the app. */
export async function loader({ request }: LoaderFunctionArgs) {
  const { api, tenantId, organization, headers } = await requireOrganizationClient(request);
  try {
    await api.get(tenantPaths.one(tenantId), tenantResponseSchema);
  } catch (error) {
    if (isPlatformError(error) && error.message === errorMessages.tenantApprovalRequired) {
      return data(
        { organizationName: organization.displayName, scheduleCallUrl: getEnv().scheduleCallUrl },
        { headers },
      );
    }
    throw error;
  }
  throw redirect("/", { headers });
}

export default function PendingApproval() {
  const { organizationName, scheduleCallUrl } = useLoaderData<typeof loader>();
  return (
    <BrandedLayout>
      <Stack gap="md">
        <Title order={2}>You&apos;re in! Let&apos;s get you started</Title>
        <Text>
          We onboard every new team personally, so {organizationName} is not open yet. Next, we&apos;ll have a
          short chat about your setup: which clouds you use, what you deploy and how your team ships today.
        </Text>
        <Text>
          That way we can prepare your environments and connections before you start, and you get a platform
          that fits your workflow from day one instead of a blank screen.
        </Text>
        <Button component="a" href={scheduleCallUrl} target="_blank" rel="noopener noreferrer">
          Schedule a quick call
        </Button>
        <Form method="post" action="/auth/logout" reloadDocument>
          <Button type="submit" variant="subtle" fullWidth>
            Logout
          </Button>
        </Form>
      </Stack>
    </BrandedLayout>
  );
}
