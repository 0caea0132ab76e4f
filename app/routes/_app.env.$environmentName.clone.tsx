import { Anchor, Paper, Stack, Text } from "@mantine/core";
import { data, type ActionFunctionArgs, type MetaFunction, type LinksFunction } from "@remix-run/node";
import { Link, useRouteLoaderData } from "@remix-run/react";
import { CloneProgress } from "~/features/environments/clone-progress";
import {
  areCloneResourcesDeploying,
  cloneExitMessage,
  isCloneStepRunning,
} from "~/features/environments/clone-steps";
import { environmentPagePaths } from "~/features/environments/paths";
import { requireEnvironment } from "~/features/workspace/workspace.server";
import { useRevalidateWhileBusy } from "~/hooks/use-revalidate-while";
import { userMessageOf } from "~/platform/action-errors.server";
import { isPlatformError } from "~/platform/client.server";
import { exitCloning, launchClonedResources } from "~/platform/environments.server";
import { dataWithToast, redirectWithToast } from "~/toast.server";
import type { loader as environmentLoader } from "./_app.env.$environmentName";
import { mantineFormsSheet } from "~/styles/mantine-sheets";

export const links: LinksFunction = () => [mantineFormsSheet];

export const meta: MetaFunction = ({ params }) => [
  { title: `Clone progress · ${params.environmentName ?? "Environment"} · Cloud Console` },
];

const cloneIntents = ["launch-resources", "exit"] as const;

/** The clone's two user steps: the go-ahead to launch the resources, and leaving the flow after the hand-off. */
export async function action({ request, params }: ActionFunctionArgs) {
  const { api, tenantId, environment, headers } = await requireEnvironment(request, params.environmentName);
  const submitted = (await request.formData()).get("intent");
  const intent = cloneIntents.find((candidate) => candidate === submitted);
  if (!intent) throw data({ message: "Unknown form" }, { status: 400, headers });
  try {
    if (intent === "launch-resources") {
      await launchClonedResources(api, tenantId, environment.id);
      return dataWithToast({ ok: true }, { variant: "success", message: "Launching resources" }, { headers });
    }
    const exited = await exitCloning(api, tenantId, environment.id);
    return await redirectWithToast(
      environmentPagePaths.section(exited.name),
      { variant: "success", message: cloneExitMessage(exited.cloningStage) },
      { headers },
    );
  } catch (error) {
    if (!isPlatformError(error)) throw error;
    const message = userMessageOf(error);
    return dataWithToast(
      { ok: false },
      { variant: "error", message },
      { status: error.status || 502, headers },
    );
  }
}

export default function EnvironmentClonePage() {
  const scope = useRouteLoaderData<typeof environmentLoader>("routes/_app.env.$environmentName");
  const environment = scope?.environment;
  const cloneState = scope?.cloneState ?? null;
  const inProgress = environment?.cloningStage === "STAGE_IN_PROGRESS";
  // While the platform works through a step, the page looks again at the busy poll interval.
  useRevalidateWhileBusy(
    inProgress &&
      cloneState !== null &&
      (isCloneStepRunning(cloneState.infraState) || areCloneResourcesDeploying(cloneState)),
  );
  if (!environment) return null;
  if (cloneState) return <CloneProgress state={cloneState} environmentName={environment.name} />;
  return (
    <Paper withBorder p="lg" data-testid="clone-not-in-progress">
      <Stack gap="xs">
        <Text fw={600}>No clone in progress</Text>
        <Text size="sm" c="dimmed">
          {environment.clonedFrom
            ? `This environment was cloned from ${environment.clonedFrom.name}; the clone is over.`
            : "This environment is not being cloned."}{" "}
          <Anchor component={Link} to={environmentPagePaths.section(environment.name)}>
            Back to the overview
          </Anchor>
        </Text>
      </Stack>
    </Paper>
  );
}
