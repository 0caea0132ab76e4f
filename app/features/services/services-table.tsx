import { Table } from "@mantine/core";
import { Link } from "@remix-run/react";
import { serviceTypeLabels } from "#contract/service-catalogue";
import { type ResourceSummary } from "#contract/services";
import { mantineClasses, stripedHoverRowAttributes } from "~/components/mantine-classes";
import { formatUsd } from "~/features/environments/cost";
import { StageBadge } from "~/features/environments/stage-badge";
import { servicePagePaths } from "./paths";
import { formatDateTime } from "~/components/date-time";

/** What a row shows: all a list page needs to send to the browser of each service. */
export type ServiceRow = Pick<
  ResourceSummary,
  "id" | "name" | "serviceType" | "stage" | "monthlyCost" | "endpoint" | "updatedAt"
>;

export function serviceRowOf({ id, name, serviceType, stage, monthlyCost, endpoint, updatedAt }: ServiceRow) {
  return { id, name, serviceType, stage, monthlyCost, endpoint, updatedAt };
}

export function ServicesTable({
  environmentName,
  services,
  label = "Services",
}: {
  environmentName: string;
  services: readonly ServiceRow[];
  label?: string;
}) {
  return (
    <Table.ScrollContainer minWidth={760}>
      <Table striped highlightOnHover aria-label={label} className="services-table">
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
          {/* Plain elements with Mantine's classes: a page has up to 50 rows (see mantine-classes.ts). */}
          {services.map((service) => (
            <tr key={service.id} className={mantineClasses.tr} {...stripedHoverRowAttributes}>
              <td className={mantineClasses.td}>
                <Link
                  to={servicePagePaths.details(environmentName, service.id)}
                  className={`${mantineClasses.anchor} services-table-name`}
                  data-underline="hover"
                >
                  {service.name}
                </Link>
              </td>
              <td className={mantineClasses.td}>{serviceTypeLabels[service.serviceType]}</td>
              <td className={mantineClasses.td}>
                <StageBadge stage={service.stage} />
              </td>
              <td className={`${mantineClasses.td} services-table-cost`}>{formatUsd(service.monthlyCost)}</td>
              <td className={mantineClasses.td}>
                {service.endpoint ? (
                  <p className={`${mantineClasses.text} services-table-endpoint`} data-size="sm">
                    {service.endpoint}
                  </p>
                ) : (
                  <p className={`${mantineClasses.text} services-table-none`} data-size="sm">
                    —
                  </p>
                )}
              </td>
              <td className={mantineClasses.td}>
                <p className={mantineClasses.text} data-size="sm">
                  {formatDateTime(service.updatedAt)}
                </p>
              </td>
            </tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
