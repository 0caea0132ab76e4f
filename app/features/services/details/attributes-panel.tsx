import { Table, Text } from "@mantine/core";
import type { Resource } from "#contract/services";
import { SecretValue } from "~/components/secret-value";
import { useCanInCurrentEnvironment } from "~/features/permissions/permissions";
import { serviceDetailsPaths } from "./paths";

/** The service's secret attributes: names only; each value is read from the platform when revealed. */
export function AttributesPanel({
  environmentName,
  service,
}: {
  environmentName: string;
  service: Resource;
}) {
  const canReveal = useCanInCurrentEnvironment("secrets.reveal");
  if (!service.secretAttributes.length) {
    return <Text c="dimmed">This service has no secret attributes.</Text>;
  }
  return (
    <Table aria-label="Secret attributes" maw={720}>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Attribute</Table.Th>
          <Table.Th>Value</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {service.secretAttributes.map((attribute) => (
          <Table.Tr key={attribute}>
            <Table.Td ff="monospace">{attribute}</Table.Td>
            <Table.Td>
              <SecretValue
                revealUrl={serviceDetailsPaths.attribute(environmentName, service.id, attribute)}
                label={attribute}
                testId={`attribute-${attribute}`}
                copyable
                revealAllowed={canReveal}
              />
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
