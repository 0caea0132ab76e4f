import { Anchor, Card, Group, Paper, SegmentedControl, SimpleGrid, Stack, Text, Title } from "@mantine/core";
import { Link, useNavigate } from "@remix-run/react";
import { useEffect, useState } from "react";
import type { ResourceSummary } from "#contract/services";
import { formatUsd } from "~/features/environments/cost";
import { useNonce } from "~/nonce";
import { StageBadge } from "~/features/environments/stage-badge";
import { servicePagePaths, type ApplicationsView } from "./paths";
import { ServicesTable } from "./services-table";
import { formatDateTime } from "~/components/date-time";

/** SPEC §3 browser storage key of the chosen applications view. */
export const APP_LISTING_VIEW_KEY = "persist:app-listing-view-type";

export function parseApplicationsView(value: string | null | undefined): ApplicationsView | null {
  return value === "grid" || value === "list" ? value : null;
}

function readStoredView(): ApplicationsView | null {
  try {
    return parseApplicationsView(window.localStorage.getItem(APP_LISTING_VIEW_KEY));
  } catch {
    return null;
  }
}

function storeView(view: ApplicationsView) {
  try {
    window.localStorage.setItem(APP_LISTING_VIEW_KEY, view);
  } catch {
    // Storage can be off (private windows): the choice then lasts for the page only.
  }
}

/**
 * Runs before hydration: shows the stored view at once, so a stored "grid" does not flash the server's list
 * first. React then starts from the same choice (read again in an effect).
 */
const applyStoredViewScript = `(function(){try{var v=localStorage.getItem(${JSON.stringify(
  APP_LISTING_VIEW_KEY,
)});if(v==="grid"||v==="list")document.currentScript.parentElement.setAttribute("data-view",v)}catch(e){}})()`;

const viewStyles = `[data-view="grid"]>[data-view-panel="list"],[data-view="list"]>[data-view-panel="grid"]{display:none}`;

/**
 * The applications of an environment as a grid of cards or a table. The server renders the list; the stored choice
 * applies before hydration. `forcedView` (the /list address) ignores the stored choice.
 */
export function ApplicationsListing({
  environmentName,
  applications,
  forcedView,
}: {
  environmentName: string;
  applications: readonly ResourceSummary[];
  forcedView?: ApplicationsView;
}) {
  const navigate = useNavigate();
  const [view, setView] = useState<ApplicationsView>(forcedView ?? "list");
  const nonce = useNonce();
  useEffect(() => {
    if (!forcedView) setView(readStoredView() ?? "list");
  }, [forcedView]);

  const choose = (value: string) => {
    const chosen = parseApplicationsView(value);
    if (!chosen) return;
    storeView(chosen);
    setView(chosen);
    // The /list address shows only the list: another choice goes to the page that honours it.
    if (forcedView && chosen !== forcedView) navigate(servicePagePaths.applications(environmentName, chosen));
  };

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end">
        <Stack gap={4}>
          <Title order={2}>Applications</Title>
          <Text c="dimmed" size="sm">
            The applications deployed in {environmentName}.
          </Text>
        </Stack>
        {applications.length ? (
          <SegmentedControl
            aria-label="View"
            value={view}
            onChange={choose}
            data={[
              { value: "list", label: "List" },
              { value: "grid", label: "Grid" },
            ]}
          />
        ) : null}
      </Group>
      {applications.length === 0 ? (
        <Paper withBorder p="xl">
          <Stack align="center" gap="sm">
            <Title order={3}>No applications yet</Title>
            <Text c="dimmed" ta="center" maw={520}>
              An application is your own code running in this environment as a container image, next to the
              services it uses. Applications are deployed from their source: once one is deployed it appears
              here with its stage, endpoint and cost.
            </Text>
            <Anchor component={Link} to={servicePagePaths.list(environmentName)}>
              See the environment&apos;s services
            </Anchor>
          </Stack>
        </Paper>
      ) : (
        <div data-view={view} data-testid="applications" suppressHydrationWarning>
          {forcedView ? null : (
            // The page's CSP runs inline scripts only with its nonce; the browser hides the nonce after parsing.
            <script
              nonce={nonce}
              suppressHydrationWarning
              dangerouslySetInnerHTML={{ __html: applyStoredViewScript }}
            />
          )}
          {/* As markup, not a text child: React would escape its quotes and ">" and the CSS would not match. */}
          <style dangerouslySetInnerHTML={{ __html: viewStyles }} />
          <div data-view-panel="list">
            <ServicesTable environmentName={environmentName} services={applications} label="Applications" />
          </div>
          <div data-view-panel="grid">
            <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md" role="list" aria-label="Applications">
              {applications.map((application) => (
                <Card key={application.id} withBorder padding="md" role="listitem">
                  <Stack gap="xs">
                    <Group justify="space-between" wrap="nowrap">
                      <Anchor
                        component={Link}
                        to={servicePagePaths.details(environmentName, application.id)}
                        fw={600}
                      >
                        {application.name}
                      </Anchor>
                      <StageBadge stage={application.stage} />
                    </Group>
                    <Text size="sm" c="dimmed" ff="monospace" style={{ wordBreak: "break-all" }}>
                      {application.endpoint ?? "No endpoint yet"}
                    </Text>
                    <Group justify="space-between">
                      <Text size="sm">{formatUsd(application.monthlyCost)} / month</Text>
                      <Text size="xs" c="dimmed">
                        Updated {formatDateTime(application.updatedAt)}
                      </Text>
                    </Group>
                  </Stack>
                </Card>
              ))}
            </SimpleGrid>
          </div>
        </div>
      )}
    </Stack>
  );
}
