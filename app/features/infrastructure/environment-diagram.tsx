import { Anchor, Paper, SimpleGrid, Stack, Text, Title } from "@mantine/core";
import type { ReactNode } from "react";
import { Link } from "@remix-run/react";
import { serviceTypeLabels } from "#contract/service-catalogue";
import { StageBadge } from "~/features/environments/stage-badge";
import { servicePagePaths } from "~/features/services/paths";
import type { DiagramService, EnvironmentDiagram } from "./diagram";

/**
 * How the environment fits together, as nested boxes rendered on the server (decision 037): the network around
 * everything, the clusters with the applications they run, the data services with the applications that use them.
 * Boxes are labelled regions and their contents plain lists, so a screen reader reads the same structure.
 */
export function EnvironmentDiagramView({
  environmentName,
  diagram,
}: {
  environmentName: string;
  diagram: EnvironmentDiagram;
}) {
  const networkLabel = diagram.networks.length
    ? `Network ${diagram.networks.map((network) => network.name).join(", ")}`
    : "Environment (no network service: the cloud's default network)";
  return (
    <Paper
      withBorder
      p="md"
      component="section"
      aria-label={networkLabel}
      data-testid="environment-diagram"
      style={{ borderStyle: "dashed", borderWidth: 2 }}
    >
      <Stack gap="md">
        <div>
          <Text fw={600}>{networkLabel}</Text>
          {diagram.networks.map((network) => (
            <ServiceLine key={network.id} environmentName={environmentName} service={network} />
          ))}
        </div>
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
          <Box title="Clusters and the applications they run">
            {diagram.clusters.length || diagram.unplacedApplications.length ? (
              <Stack gap="sm">
                {diagram.clusters.map((cluster) => (
                  <Paper
                    key={cluster.id}
                    withBorder
                    p="sm"
                    component="section"
                    aria-label={`Cluster ${cluster.name}`}
                  >
                    <ServiceLine environmentName={environmentName} service={cluster} />
                    <ServiceList
                      environmentName={environmentName}
                      services={cluster.applications}
                      empty="Runs no application yet."
                      label={`Applications on ${cluster.name}`}
                    />
                  </Paper>
                ))}
                {diagram.unplacedApplications.length ? (
                  <Paper
                    withBorder
                    p="sm"
                    component="section"
                    aria-label="Applications on managed containers"
                  >
                    <Text size="sm" fw={600}>
                      Managed containers (no cluster)
                    </Text>
                    <ServiceList
                      environmentName={environmentName}
                      services={diagram.unplacedApplications}
                      empty=""
                      label="Applications on managed containers"
                    />
                  </Paper>
                ) : null}
              </Stack>
            ) : (
              <Text size="sm" c="dimmed">
                No clusters or applications yet.
              </Text>
            )}
          </Box>
          <Box title="Databases, caches, queues and storage">
            <ServiceList
              environmentName={environmentName}
              services={diagram.data}
              empty="No data services yet."
              label="Data services"
            />
          </Box>
        </SimpleGrid>
        {diagram.other.length ? (
          <Box title="Control planes, functions and certificates">
            <ServiceList
              environmentName={environmentName}
              services={diagram.other}
              empty=""
              label="Other services"
            />
          </Box>
        ) : null}
      </Stack>
    </Paper>
  );
}

function Box({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Paper withBorder p="sm" component="section" aria-label={title}>
      <Title order={4} size="h5" mb="xs">
        {title}
      </Title>
      {children}
    </Paper>
  );
}

function ServiceList({
  environmentName,
  services,
  empty,
  label,
}: {
  environmentName: string;
  services: DiagramService[];
  empty: string;
  label: string;
}) {
  if (!services.length) {
    return empty ? (
      <Text size="sm" c="dimmed">
        {empty}
      </Text>
    ) : null;
  }
  return (
    <ul aria-label={label} style={{ listStyle: "none", margin: 0, padding: 0 }}>
      {services.map((service) => (
        <li key={service.id}>
          <ServiceLine environmentName={environmentName} service={service} />
        </li>
      ))}
    </ul>
  );
}

/** A service's name, type and stage, with what it uses or what uses it. */
function ServiceLine({ environmentName, service }: { environmentName: string; service: DiagramService }) {
  const relation = service.uses.length
    ? `uses ${service.uses.join(", ")}`
    : service.usedBy.length
      ? `used by ${service.usedBy.join(", ")}`
      : null;
  return (
    <Stack gap={0} py={4}>
      <Text
        size="sm"
        component="div"
        style={{ display: "flex", gap: 8, alignItems: "center", flexWrap: "wrap" }}
      >
        <Anchor component={Link} to={servicePagePaths.details(environmentName, service.id)} size="sm">
          {service.name}
        </Anchor>
        <span>{serviceTypeLabels[service.serviceType]}</span>
        <StageBadge stage={service.stage} />
      </Text>
      {relation ? (
        <Text size="xs" c="dimmed">
          <span aria-hidden="true">{service.uses.length ? "→ " : "← "}</span>
          {relation}
        </Text>
      ) : null}
    </Stack>
  );
}
