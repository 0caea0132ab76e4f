import { Stack, Text, Title } from "@mantine/core";
import { data, redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { currentOrganization } from "~/features/organizations/current-organization";
import { requirePlatformClient } from "~/platform/request.server";

export async function loader({ request }: LoaderFunctionArgs) {
  const { organizations, headers } = await requirePlatformClient(request);
  if (currentOrganization(organizations)) throw redirect("/environments", { headers });
  return data(null, { headers });
}

export default function NoOrganization() {
  return (
    <Stack gap="sm">
      <Title order={2}>No organization yet</Title>
      <Text>
        Your account does not belong to an organization. Ask an admin of your organization to invite you.
      </Text>
    </Stack>
  );
}
