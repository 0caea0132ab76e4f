import { Stack, Tabs, Title } from "@mantine/core";
import type { MetaFunction } from "@remix-run/node";
import { Link, Outlet, useLocation, useRouteLoaderData } from "@remix-run/react";
import { ErrorPage } from "~/components/error-page";
import { PERMISSIONS_ROUTE_ID, type PermissionsLoaderData } from "~/features/permissions/permissions";
import { visibleSettingsItems } from "~/features/settings/paths";

export const meta: MetaFunction = () => [{ title: "Settings · Cloud Console" }];

/**
 * The settings area: a nav of its pages, each shown only to those its page is for (the invitations to holders of
 * users.manage, the audit log to holders of audit.view); the pages' own loaders send anyone else to /401.
 */
export default function SettingsLayout() {
  const shell = useRouteLoaderData<PermissionsLoaderData>(PERMISSIONS_ROUTE_ID);
  const { pathname } = useLocation();
  const items = visibleSettingsItems(shell?.permissions);
  // The deepest entry the address is in: /settings/users/invite is Invitations, not Members.
  const current = items
    .filter((item) => pathname === item.to || pathname.startsWith(`${item.to}/`))
    .sort((a, b) => b.to.length - a.to.length)[0];
  return (
    <Stack gap="md">
      <Title order={2}>Settings</Title>
      <Tabs value={current?.to ?? null}>
        <Tabs.List aria-label="Settings sections">
          {items.map((item) => (
            <Tabs.Tab
              key={item.to}
              value={item.to}
              renderRoot={(props) => <Link {...props} to={item.to} prefetch="intent" />}
            >
              {item.label}
            </Tabs.Tab>
          ))}
        </Tabs.List>
      </Tabs>
      <Outlet />
    </Stack>
  );
}

export function ErrorBoundary() {
  return <ErrorPage />;
}
