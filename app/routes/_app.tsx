import { AppShell, Group, NavLink, Text } from "@mantine/core";
import { data, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, NavLink as RemixNavLink, Outlet, useLoaderData } from "@remix-run/react";
import { ErrorPage } from "~/components/error-page";
import { EnvironmentPicker } from "~/features/environments/environment-picker";
import { UserMenu } from "~/features/organizations/user-menu";
import { loadWorkspace } from "~/features/workspace/workspace.server";
import { APP_BAR_HEIGHT, SIDEBAR_WIDTH } from "~/layout";

export async function loader({ request }: LoaderFunctionArgs) {
  const workspace = await loadWorkspace(request);
  const { user, organization, memberships, environments, currentEnvironment, headers } = workspace;
  return data(
    {
      user: { name: user.name, email: user.email, picture: user.picture ?? null },
      organization: { id: organization.id, displayName: organization.displayName },
      organizations: memberships.map(({ id, displayName }) => ({ id, displayName })),
      environments: environments.map((environment) => environment.name),
      currentEnvironment: currentEnvironment?.name ?? null,
    },
    { headers },
  );
}

export default function AppLayout() {
  const { user, organization, organizations, environments, currentEnvironment } =
    useLoaderData<typeof loader>();
  return (
    <AppShell
      header={{ height: APP_BAR_HEIGHT }}
      navbar={{ width: SIDEBAR_WIDTH, breakpoint: 0 }}
      padding="lg"
    >
      <AppShell.Header px="md">
        <Group h="100%" justify="space-between">
          <Group gap="md">
            <Text component={Link} to="/" fw={700} c="purple">
              Cloud Console
            </Text>
            <EnvironmentPicker environments={environments} current={currentEnvironment} />
          </Group>
          <UserMenu user={user} organization={organization} organizations={organizations} />
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs" aria-label="Main navigation">
        <NavLink component={RemixNavLink} to="/environments" label="Environments" />
      </AppShell.Navbar>
      <AppShell.Main>
        <Outlet />
      </AppShell.Main>
    </AppShell>
  );
}

export function ErrorBoundary() {
  return <ErrorPage />;
}
