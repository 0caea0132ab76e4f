import { Anchor, Table, Text } from "@mantine/core";
import { Link } from "@remix-run/react";
import { serviceTypeLabels, type ResourceSummary } from "#contract/services";
import { formatUsd } from "~/features/environments/cost";
import { StageBadge } from "~/features/environments/stage-badge";
import { formatUpdatedAt } from "./format";
import { servicePagePaths } from "./paths";

export function ServicesTable({
  environmentName,
  services,
  label = "Services",
}: {
  environmentName: string;
  services: readonly ResourceSummary[];
  label?: string;
}) {
  return (
    <Table.ScrollContainer minWidth={760}>
      <Table striped highlightOnHover aria-label={label}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Name</Table.Th>
            <Table.Th>Type</Table.Th>
            <Table.Th>Stage</Table.Th>
            <Table.Th ta="right">Monthly cost</Table.Th>
            <Table.Th>Endpoint</Table.Th>
            <Table.Th>Updated</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {services.map((service) => (
            <Table.Tr key={service.id}>
              <Table.Td>
                <Anchor component={Link} to={servicePagePaths.details(environmentName, service.id)} fw={600}>
                  {service.name}
                </Anchor>
              </Table.Td>
              <Table.Td>{serviceTypeLabels[service.serviceType]}</Table.Td>
              <Table.Td>
                <StageBadge stage={service.stage} />
              </Table.Td>
              <Table.Td ta="right">{formatUsd(service.monthlyCost)}</Table.Td>
              <Table.Td>
                {service.endpoint ? (
                  <Text size="sm" ff="monospace" style={{ wordBreak: "break-all" }}>
                    {service.endpoint}
                  </Text>
                ) : (
                  <Text size="sm" c="dimmed">
                    —
                  </Text>
                )}
              </Table.Td>
              <Table.Td>
                <Text size="sm">{formatUpdatedAt(service.updatedAt)}</Text>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
