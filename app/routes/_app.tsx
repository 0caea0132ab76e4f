import { AppShell, Avatar, Button, Group, NavLink, Stack, Text } from "@mantine/core";
import { data, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, NavLink as RemixNavLink, Outlet, useLoaderData } from "@remix-run/react";
import { ErrorPage } from "~/components/error-page";
import { currentOrganization } from "~/features/organizations/current-organization";
import { requirePlatformClient } from "~/platform/request.server";

/** SPEC §2.7 / §9 layout constants. */
const APP_BAR_HEIGHT = 65;
const SIDEBAR_WIDTH = 186;

export async function loader({ request }: LoaderFunctionArgs) {
  const { user, organizations, headers } = await requirePlatformClient(request);
  const organization = currentOrganization(organizations);
  return data(
    {
      user: { name: user.name, email: user.email, picture: user.picture ?? null },
      organization: organization ? { displayName: organization.displayName } : null,
    },
    { headers },
  );
}

export default function AppLayout() {
  const { user, organization } = useLoaderData<typeof loader>();
  return (
    <AppShell
      header={{ height: APP_BAR_HEIGHT }}
      navbar={{ width: SIDEBAR_WIDTH, breakpoint: 0 }}
      padding="lg"
    >
      <AppShell.Header px="md">
        <Group h="100%" justify="space-between">
          <Group gap="sm">
            <Text component={Link} to="/" fw={700} c="purple">
              Cloud Console
            </Text>
            {organization ? (
              <Text fw={600} data-testid="current-organization">
                {organization.displayName}
              </Text>
            ) : null}
          </Group>
          <Group gap="sm">
            <Avatar src={user.picture} alt={user.name} radius="xl" size="sm">
              {initials(user.name)}
            </Avatar>
            <Stack gap={0}>
              <Text size="sm" fw={600} data-testid="user-name">
                {user.name}
              </Text>
              <Text size="xs" c="dimmed">
                {user.email}
              </Text>
            </Stack>
            <Form method="post" action="/auth/logout" reloadDocument>
              <Button type="submit" variant="subtle" size="xs">
                Logout
              </Button>
            </Form>
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs" aria-label="Main navigation">
        {organization ? <NavLink component={RemixNavLink} to="/environments" label="Environments" /> : null}
      </AppShell.Navbar>
      <AppShell.Main>
        <Outlet />
      </AppShell.Main>
    </AppShell>
  );
}

function initials(name: string): string {
  return name
    .split(/\s+/)
    .map((part) => part[0] ?? "")
    .join("")
    .slice(0, 2)
    .toUpperCase();
}

export function ErrorBoundary() {
  return <ErrorPage />;
}
