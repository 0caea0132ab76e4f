import { Button, Menu, Text } from "@mantine/core";
import { Link } from "@remix-run/react";
import { ChevronDownIcon } from "~/components/icons";
import { MENU_MIN_WIDTH } from "~/layout";

/**
 * The shell's environment picker: every environment of the organization; choosing one opens it. Beside it, where
 * the current one runs, so no page of an environment leaves that in doubt (the simulated cloud included).
 */
export function EnvironmentPicker({
  environments,
  current,
  target,
}: {
  environments: string[];
  current: string | null;
  target: string | null;
}) {
  if (environments.length === 0) return null;
  return (
    <>
      <Menu position="bottom-start">
        <Menu.Target>
          <Button
            variant="default"
            size="xs"
            aria-label="Environment"
            rightSection={<ChevronDownIcon />}
            data-testid="environment-picker"
          >
            {current ?? "Select environment"}
          </Button>
        </Menu.Target>
        <Menu.Dropdown miw={MENU_MIN_WIDTH}>
          <Menu.Label>Environments</Menu.Label>
          {environments.map((name) => (
            <Menu.Item
              key={name}
              component={Link}
              to={`/env/${encodeURIComponent(name)}`}
              disabled={name === current}
            >
              {name}
            </Menu.Item>
          ))}
          <Menu.Divider />
          <Menu.Item component={Link} to="/environments">
            All environments
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
      {target ? (
        <Text size="xs" c="dimmed" data-testid="environment-target">
          {target}
        </Text>
      ) : null}
    </>
  );
}
