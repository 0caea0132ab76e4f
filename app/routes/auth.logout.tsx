import { Button, Center, Group, Stack, Text, Title } from "@mantine/core";
import type { ActionFunctionArgs } from "@remix-run/node";
import { Form, Link } from "@remix-run/react";
import { logout } from "~/auth/auth.server";
import { getSession } from "~/auth/session.server";
import { forgetPermissions } from "~/features/permissions/permissions.server";

/** Signing out changes state, so it happens on POST; a GET (a typed or bookmarked address) asks first. */
export async function action({ request }: ActionFunctionArgs) {
  const user = (await getSession(request)).get("user");
  if (user) forgetPermissions(user.sub);
  return logout(request);
}

export default function Logout() {
  return (
    <Center mih="100vh" p="xl">
      <Form method="post" reloadDocument>
        <Stack align="center" gap="md" ta="center">
          <Title order={1}>Sign out</Title>
          <Text>Do you want to sign out of Cloud Console?</Text>
          <Group>
            <Button component={Link} to="/" variant="default">
              Cancel
            </Button>
            <Button type="submit" autoFocus>
              Logout
            </Button>
          </Group>
        </Stack>
      </Form>
    </Center>
  );
}
