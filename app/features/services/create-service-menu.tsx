import { Menu } from "@mantine/core";
import { Link } from "@remix-run/react";
import { creatableServiceTypes, serviceTypeLabels } from "#contract/service-catalogue";
import { Button } from "~/components/button";
import { ChevronDownIcon } from "~/components/icons";
import { RestrictedButton } from "~/components/restricted";
import { useCanInCurrentEnvironment } from "~/features/permissions/permissions";
import { applicationPagePaths } from "~/features/applications/paths";
import { servicePagePaths } from "./paths";

/** "Create service": an application and the ten types with a create page (SPEC §2.2), each a link to it. */
export function CreateServiceMenu({
  environmentName,
  label = "Create service",
}: {
  environmentName: string;
  label?: string;
}) {
  const canCreate = useCanInCurrentEnvironment("services.configure");
  if (!canCreate) {
    return <RestrictedButton rightSection={<ChevronDownIcon size={16} />}>{label}</RestrictedButton>;
  }
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <Button rightSection={<ChevronDownIcon size={16} />}>{label}</Button>
      </Menu.Target>
      <Menu.Dropdown aria-label="Service types">
        <Menu.Item component={Link} to={applicationPagePaths.create(environmentName)}>
          {serviceTypeLabels.application}
        </Menu.Item>
        {creatableServiceTypes.map((serviceType) => (
          <Menu.Item
            key={serviceType}
            component={Link}
            to={servicePagePaths.create(environmentName, serviceType)}
          >
            {serviceTypeLabels[serviceType]}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
