import { data, type LinksFunction, type LoaderFunctionArgs } from "@remix-run/node";
import { Outlet, useLoaderData } from "@remix-run/react";
import { ErrorPage } from "~/components/error-page";
import { logDiagnostic } from "~/diagnostics.server";
import { useAnalyticsIdentity } from "~/features/analytics/analytics-provider";
import { getFeatureFlags } from "~/features/feature-flags/flags.server";
import { defaultFeatureFlags } from "~/features/feature-flags/flag-values";
import { AppLayout } from "~/components/layout/app-layout";
import { allowedNavigation, appNavigation } from "~/components/layout/navigation";
import { EnvironmentPicker } from "~/features/environments/environment-picker";
import { loadEnvironmentTarget } from "~/features/environments/target.server";
import { OnboardingBanner } from "~/features/onboarding/onboarding-banner";
import { UserMenu } from "~/features/organizations/user-menu";
import { allows } from "~/features/permissions/permissions";
import { loadShellPermissions } from "~/features/permissions/permissions.server";
import { loadWorkspace } from "~/features/workspace/workspace.server";
import { mantineShellSheet } from "~/styles/mantine-sheets";

/** The shell's Mantine components and the lists' (decision 064); pages with forms add mantine-forms.css. */
export const links: LinksFunction = () => [mantineShellSheet];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const workspace = await loadWorkspace(request, context);
  const { api, tenantId, user, organization, memberships, environments, currentEnvironment, headers } =
    workspace;
  const flags = getFeatureFlags(api, { tenantId, environmentId: currentEnvironment?.id }).catch(
    (error: unknown) => {
      // The shell stays usable with the catalogue's defaults when the flags cannot be read.
      logDiagnostic({
        action: "feature-flags-unavailable",
        level: "warn",
        request,
        tenantId,
        userId: user.sub,
        error,
      });
      return defaultFeatureFlags();
    },
  );
  const currentTarget = currentEnvironment ? loadEnvironmentTarget(api, tenantId, currentEnvironment) : null;
  const { featureFlags, permissions } = await loadShellPermissions(
    api,
    { request, userId: user.sub, tenantId },
    flags,
  );
  return data(
    {
      user: { name: user.name, email: user.email, picture: user.picture ?? null },
      organization: { id: organization.id, displayName: organization.displayName },
      organizations: memberships.map(({ id, displayName }) => ({ id, displayName })),
      environments: environments.map((environment) => environment.name),
      currentEnvironment: currentEnvironment?.name ?? null,
      currentTarget: await currentTarget,
      featureFlags,
      permissions,
      currentEnvironmentId: currentEnvironment?.id ?? null,
      analyticsUser: { id: user.sub, email: user.email, name: user.name },
      tenantId,
    },
    { headers },
  );
}

export { shouldRevalidate } from "~/features/workspace/shell-revalidation";

export default function AppShellRoute() {
  const {
    user,
    organization,
    organizations,
    environments,
    currentEnvironment,
    currentTarget,
    analyticsUser,
    tenantId,
    permissions,
  } = useLoaderData<typeof loader>();
  useAnalyticsIdentity(analyticsUser, tenantId);
  return (
    <AppLayout
      navigation={allowedNavigation(appNavigation, (permission) => allows(permissions, permission))}
      environmentPicker={
        <EnvironmentPicker environments={environments} current={currentEnvironment} target={currentTarget} />
      }
      userMenu={<UserMenu user={user} organization={organization} organizations={organizations} />}
    >
      <OnboardingBanner />
      <Outlet />
    </AppLayout>
  );
}

export function ErrorBoundary() {
  return <ErrorPage />;
}
