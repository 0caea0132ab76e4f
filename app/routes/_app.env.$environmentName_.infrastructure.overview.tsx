import { Alert, Anchor, Group, Paper, SimpleGrid, Stack, Table, Text, Title } from "@mantine/core";
import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import type { ReactNode } from "react";
import { errorCodes } from "#contract/errors";
import { formatUsd } from "~/features/environments/cost";
import { StageBadge, stageLabel } from "~/features/environments/stage-badge";
import { EnvironmentDiagramView } from "~/features/infrastructure/environment-diagram";
import { InfrastructureHeader } from "~/features/infrastructure/infrastructure-tabs";
import {
  loadInfrastructureOverview,
  type InfrastructureOverview,
} from "~/features/infrastructure/overview.server";
import { CreateServiceMenu } from "~/features/services/create-service-menu";
import { servicePagePaths } from "~/features/services/paths";
import { requireEnvironmentIdentity } from "~/features/workspace/workspace.server";
import { throwRouteError } from "~/platform/route-errors.server";
import { formatDateTime } from "~/components/date-time";

export const meta: MetaFunction = ({ params }) => [
  { title: `Infrastructure overview · ${params.environmentName ?? "Environment"} · Cloud Console` },
];

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { api, tenantId, environment, headers } = await requireEnvironmentIdentity(
    request,
    params.environmentName,
    context,
  );
  const overview = await loadInfrastructureOverview(api, tenantId, environment, new Date()).catch(
    (error: unknown) => throwRouteError(error, errorCodes.resourceListFetch, headers),
  );
  return data({ environmentName: environment.name, overview }, { headers });
}

export default function InfrastructureOverviewPage() {
  const { environmentName, overview } = useLoaderData<typeof loader>();
  return (
    <Stack gap="md">
      <InfrastructureHeader environmentName={environmentName} />
      {overview.total === 0 ? (
        <Paper withBorder p="xl">
          <Stack align="center" gap="sm">
            <Title order={3}>Nothing runs in {environmentName} yet</Title>
            <Text c="dimmed" ta="center" maw={520}>
              Once you create a network, a cluster, a database or an application, this overview shows what
              runs, what fails, what it costs, its load balancers and certificates, and how it all fits
              together.
            </Text>
            <CreateServiceMenu environmentName={environmentName} label="Create a resource" />
          </Stack>
        </Paper>
      ) : (
        <Figures environmentName={environmentName} overview={overview} />
      )}
    </Stack>
  );
}

function Figures({
  environmentName,
  overview,
}: {
  environmentName: string;
  overview: InfrastructureOverview;
}) {
  return (
    <Stack gap="lg">
      <SimpleGrid cols={{ base: 1, sm: overview.spend.kind === "shown" ? 2 : 1 }} spacing="md">
        <Paper withBorder p="md" component="section" aria-labelledby="stage-counts">
          <Title order={3} size="h4" id="stage-counts">
            {overview.total === 1 ? "1 service" : `${overview.total} services`} by stage
          </Title>
          <Group gap="md" mt="xs" component="ul" style={{ listStyle: "none", padding: 0, margin: 0 }}>
            {overview.stageCounts.map(({ stage, count }) => (
              <li key={stage}>
                <Anchor
                  component={Link}
                  to={servicePagePaths.list(environmentName, { stage })}
                  aria-label={`${count} ${stageLabel(stage)}`}
                  underline="never"
                >
                  <Group gap={6}>
                    <Text fw={700} size="lg">
                      {count}
                    </Text>
                    <StageBadge stage={stage} />
                  </Group>
                </Anchor>
              </li>
            ))}
          </Group>
        </Paper>
        {overview.spend.kind === "shown" ? (
          <Paper withBorder p="md" component="section" aria-labelledby="spend">
            <Title order={3} size="h4" id="spend">
              Spend this month
            </Title>
            <Text size="xl" fw={700} data-testid="spend-month-to-date">
              {formatUsd(overview.spend.monthToDate)}
            </Text>
            <Text size="sm" c="dimmed">
              Forecast for the month: {formatUsd(overview.spend.forecast)} · accrued until{" "}
              {formatDateTime(overview.spend.accruedUntil)} ·{" "}
              <Anchor component={Link} to={overview.spend.costPage} size="sm">
                Cost details
              </Anchor>
            </Text>
          </Paper>
        ) : null}
      </SimpleGrid>

      <Section title="Failing" id="failing">
        {overview.failing.length ? (
          <Stack gap="xs">
            {overview.failing.map((service) => (
              <Alert
                key={service.id}
                color="red"
                data-testid="failing-resource"
                title={
                  <Anchor component={Link} to={servicePagePaths.details(environmentName, service.id)}>
                    {service.name}
                  </Anchor>
                }
              >
                <Text size="sm">
                  {service.type}
                  {service.failedSince
                    ? ` · failing since ${formatDateTime(service.failedSince)} (${service.failingFor})`
                    : ""}
                  {service.retries
                    ? ` · ${service.retries} ${service.retries === 1 ? "retry" : "retries"}`
                    : ""}
                </Text>
                {service.message ? <Text size="sm">{service.message}</Text> : null}
              </Alert>
            ))}
            <Anchor
              component={Link}
              to={servicePagePaths.infrastructure(environmentName, { stage: "STAGE_FAILED" })}
              size="sm"
            >
              Retry failed resources
            </Anchor>
          </Stack>
        ) : (
          <Text c="dimmed" size="sm">
            Nothing is failing.
          </Text>
        )}
      </Section>

      <Section title="How it fits together" id="diagram">
        <EnvironmentDiagramView environmentName={environmentName} diagram={overview.diagram} />
      </Section>

      <Section title="Load balancers" id="load-balancers">
        {overview.loadBalancers.length ? (
          <Stack gap="md">
            {overview.loadBalancers.map((balancer) => (
              <Stack gap={4} key={balancer.id} data-testid="load-balancer">
                <Text fw={600}>
                  {balancer.name}{" "}
                  <Text span c="dimmed" size="sm">
                    ({balancer.scheme}) · {balancer.dnsName}
                  </Text>
                </Text>
                {balancer.routes.length ? (
                  <Table.ScrollContainer minWidth={640}>
                    <Table aria-label={`Routes of ${balancer.name}`} striped>
                      <Table.Thead>
                        <Table.Tr>
                          <Table.Th>Listener</Table.Th>
                          <Table.Th>Host and path</Table.Th>
                          <Table.Th>Application</Table.Th>
                          <Table.Th>Certificate</Table.Th>
                        </Table.Tr>
                      </Table.Thead>
                      <Table.Tbody>
                        {balancer.routes.map((route) => (
                          <Table.Tr key={`${route.applicationId}-${route.listener}-${route.targetPort}`}>
                            <Table.Td>{route.listener}</Table.Td>
                            <Table.Td>{route.match}</Table.Td>
                            <Table.Td>
                              <Anchor
                                component={Link}
                                to={servicePagePaths.details(environmentName, route.applicationId)}
                                size="sm"
                              >
                                {route.application}
                              </Anchor>
                              :{route.targetPort}
                            </Table.Td>
                            <Table.Td>{route.certificate ?? "—"}</Table.Td>
                          </Table.Tr>
                        ))}
                      </Table.Tbody>
                    </Table>
                  </Table.ScrollContainer>
                ) : (
                  <Text size="sm" c="dimmed">
                    No listener rules: its services have no port on this balancer.
                  </Text>
                )}
              </Stack>
            ))}
          </Stack>
        ) : (
          <Text c="dimmed" size="sm">
            No load balancers: they come with the first deployed application.
          </Text>
        )}
      </Section>

      <Section title="Certificates" id="certificates">
        {overview.certificates.length ? (
          <Table.ScrollContainer minWidth={640}>
            <Table aria-labelledby="certificates" striped>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Domain</Table.Th>
                  <Table.Th>Service</Table.Th>
                  <Table.Th>Status</Table.Th>
                  <Table.Th>Expires</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {overview.certificates.map((certificate) => (
                  <Table.Tr key={certificate.id} data-testid="certificate">
                    <Table.Td>
                      {certificate.domain}
                      {certificate.subjectAlternativeNames.length ? (
                        <Text size="xs" c="dimmed">
                          Also {certificate.subjectAlternativeNames.join(", ")}
                        </Text>
                      ) : null}
                    </Table.Td>
                    <Table.Td>
                      <Anchor
                        component={Link}
                        to={servicePagePaths.details(environmentName, certificate.resourceId)}
                        size="sm"
                      >
                        {certificate.name}
                      </Anchor>
                    </Table.Td>
                    <Table.Td>{certificateStatusLabels[certificate.status]}</Table.Td>
                    <Table.Td>
                      {certificate.expiresAt && certificate.expiresInDays !== null
                        ? `${formatDateTime(certificate.expiresAt)} (in ${certificate.expiresInDays} days)`
                        : "—"}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        ) : (
          <Text c="dimmed" size="sm">
            No certificates: create a TLS certificate to serve an application on its own domain.
          </Text>
        )}
      </Section>
    </Stack>
  );
}

const certificateStatusLabels = {
  ISSUED: "Issued",
  PENDING_VALIDATION: "Pending validation",
  FAILED: "Failed",
} as const;

function Section({ title, id, children }: { title: string; id: string; children: ReactNode }) {
  return (
    <Stack gap="xs" component="section" aria-labelledby={id}>
      <Title order={3} size="h4" id={id}>
        {title}
      </Title>
      {children}
    </Stack>
  );
}
