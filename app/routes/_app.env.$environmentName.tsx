import { Alert, Anchor, Group, Stack, Text, Title } from "@mantine/core";
import { data, redirect, type LoaderFunctionArgs, type LinksFunction } from "@remix-run/node";
import { Link, Outlet, useLoaderData, useLocation } from "@remix-run/react";
import { isCloning, isCloningFailure } from "#contract/cloning";
import { Button } from "~/components/button";
import { ErrorPage } from "~/components/error-page";
import { loadCloneState } from "~/features/environments/clone-state.server";
import { DeleteEnvironmentButton } from "~/features/environments/delete-environment-dialog";
import { EnvironmentTabs } from "~/features/environments/environment-tabs";
import { environmentPagePaths, sectionOfPath, type EnvironmentSection } from "~/features/environments/paths";
import { StageBadge } from "~/features/environments/stage-badge";
import { ExportTerraformButton } from "~/features/environments/terraform-export-button";
import { CLONE_STATE_REFRESH_MS } from "~/features/environments/use-clone-state-refresh";
import { useFeatureFlag } from "~/features/feature-flags/use-feature-flags";
import { errorCodes } from "#contract/errors";
import { Restricted } from "~/components/restricted";
import { useCan } from "~/features/permissions/permissions";
import { requireEnvironmentIdentity } from "~/features/workspace/workspace.server";
import { useRevalidateWhile } from "~/hooks/use-revalidate-while";
import { isPlatformError } from "~/platform/client.server";
import { getEnvironment } from "~/platform/environments.server";
import { getEnvironmentPreview } from "~/platform/previews.server";
import { PreviewOf } from "~/features/environments/preview-of";
import { environmentDeletionConsequences } from "~/features/services/deletion.server";
import { throwRouteError } from "~/platform/route-errors.server";
import { mantineFormsSheet } from "~/styles/mantine-sheets";

export const links: LinksFunction = () => [mantineFormsSheet];

/** Every /env/{environmentName}/... page: the named environment (else back to the root) and its cloning state. */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const client = await requireEnvironmentIdentity(request, params.environmentName, context);
  const { api, tenantId, environment, headers } = client;
  // The stage in the header comes from the environment's services; the cloning state is asked for only while a
  // clone runs (its stage is the environment's).
  const withStage = await getEnvironment(api, tenantId, environment.id).catch(async (error: unknown) => {
    // Deleted since the session remembered it: as for a name no environment has, back to the root.
    if (isPlatformError(error) && error.status === 404) {
      client.session.unset("environment");
      await client.saveSession();
      throw redirect("/", { headers });
    }
    return throwRouteError(error, errorCodes.workspaceListFetch, headers);
  });
  const [cloneState, preview] = await Promise.all([
    loadCloneState(api, tenantId, withStage, headers),
    // Every preview is a clone: an environment that is none is asked nothing more.
    withStage.clonedFrom
      ? getEnvironmentPreview(api, tenantId, environment.id).catch((error: unknown) =>
          throwRouteError(error, errorCodes.workspaceListFetch, headers),
        )
      : null,
  ]);
  // Said in the delete dialog: what goes from the container host or the cloud account, which snapshots are kept.
  const deletion = environmentDeletionConsequences(withStage);
  return data({ environment: withStage, cloneState, deletion, preview }, { headers });
}

export default function EnvironmentScope() {
  const { environment, cloneState, deletion, preview } = useLoaderData<typeof loader>();
  const cloningHidden = useFeatureFlag("cloning-hidden");
  const onClonePage = sectionOfPath(useLocation().pathname) === "clone";
  const inProgress = environment.cloningStage === "STAGE_IN_PROGRESS";
  const canClone = useCan("environments.create");
  const canDelete = useCan("environments.delete", environment.id);
  const mayExport = useCan("terraform.generate", environment.id);
  // What the platform created in an AWS account can be exported; a simulated environment has nothing there.
  const canExport =
    mayExport && environment.cloudProvider === "AWS" && environment.cloudConnectionId !== null;
  const cloning = isCloning(environment.cloningStage, cloneState?.infraState);
  // The loader fetches the cloning state only while the stage is in progress (SPEC §4): this refreshes it.
  useRevalidateWhile(inProgress, CLONE_STATE_REFRESH_MS);

  const sections: EnvironmentSection[] = ["overview", "config", "addons", "variables"];
  if (environment.clonedFrom || cloneState) sections.push("clone");

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-start">
        <Stack gap={4}>
          <Group gap="sm">
            <Title order={2} data-testid="environment-title">
              {environment.name}
            </Title>
            <StageBadge stage={environment.stage} />
          </Group>
          {preview ? (
            <PreviewOf preview={preview} />
          ) : environment.clonedFrom ? (
            <Text size="sm" c="dimmed">
              Cloned from{" "}
              <Anchor component={Link} to={environmentPagePaths.section(environment.clonedFrom.name)}>
                {environment.clonedFrom.name}
              </Anchor>
            </Text>
          ) : null}
        </Stack>
        <Group gap="sm" align="flex-start">
          {canExport ? <ExportTerraformButton environmentName={environment.name} /> : null}
          {cloningHidden || inProgress ? null : (
            <Restricted allowed={canClone}>
              <Button
                component={Link}
                to={environmentPagePaths.cloneFrom(environment.id)}
                variant="secondary"
              >
                Clone
              </Button>
            </Restricted>
          )}
          <DeleteEnvironmentButton
            environmentName={environment.name}
            consequences={deletion}
            allowed={canDelete}
          />
        </Group>
      </Group>
      {environment.deletion ? (
        <Alert
          color={environment.deletion.stage === "STAGE_FAILED" ? "red" : "blue"}
          title={environment.deletion.stage === "STAGE_FAILED" ? "Deletion failed" : "Deletion in progress"}
          data-testid="environment-deletion"
        >
          {environment.deletion.message}
        </Alert>
      ) : null}
      {cloning && cloneState && !onClonePage ? (
        isCloningFailure(cloneState.infraState) ? (
          <Alert color="red" title="Cloning failed">
            The clone of this environment stopped at a failed step.{" "}
            <Anchor component={Link} to={environmentPagePaths.section(environment.name, "clone")}>
              See what went wrong
            </Anchor>
          </Alert>
        ) : (
          <Alert color="blue" title="Cloning in progress">
            This environment is being cloned
            {environment.clonedFrom ? ` from ${environment.clonedFrom.name}` : ""}.{" "}
            <Anchor component={Link} to={environmentPagePaths.section(environment.name, "clone")}>
              Follow the clone
            </Anchor>
          </Alert>
        )
      ) : null}
      <EnvironmentTabs environmentName={environment.name} sections={sections} />
      <Outlet />
    </Stack>
  );
}

export function ErrorBoundary() {
  return <ErrorPage />;
}
