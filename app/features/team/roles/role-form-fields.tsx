import type { FieldMetadata } from "@conform-to/react";
import { Checkbox, Paper, SimpleGrid, Stack, Text } from "@mantine/core";
import { permissionDescriptions } from "#contract/permissions";
import { TextareaField, TextField } from "~/components/forms";
import { alwaysHeld, permissionGroups } from "./role-form";

/**
 * A custom role's name, description and permissions, grouped as the catalogue reads. Checkboxes start from the
 * field's value, so a refused submission keeps what was ticked; the permission every member holds is shown ticked
 * and cannot be unticked.
 */
export function RoleFormFields({
  fields,
}: {
  fields: {
    name: FieldMetadata<string>;
    description: FieldMetadata<string>;
    permissions: FieldMetadata<string[]>;
  };
}) {
  const initial = fields.permissions.initialValue;
  const chosen = new Set<string>([initial ?? []].flat().filter((value): value is string => !!value));
  const permissionsError = fields.permissions.errors?.[0];
  return (
    <Stack gap="md">
      <TextField field={fields.name} label="Name" maxLength={60} />
      <TextareaField
        field={fields.description}
        label="Description"
        description="What the role is for (optional)"
        autosize
        minRows={2}
      />
      <Stack gap="xs" key={fields.permissions.key}>
        <Text fw={500} size="sm" id="permissions-label">
          Permissions
        </Text>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md" aria-labelledby="permissions-label" role="group">
          {permissionGroups.map((group) => (
            // A labelled group rather than Mantine's Fieldset, which would join the chunk every page loads.
            <Paper
              key={group.label}
              withBorder
              p="sm"
              role="group"
              aria-labelledby={`permission-group-${group.label}`}
            >
              <Stack gap="sm">
                <Text fw={600} size="sm" id={`permission-group-${group.label}`}>
                  {group.label}
                </Text>
                {group.permissions.map((permission) =>
                  permission === alwaysHeld ? (
                    <Checkbox
                      key={permission}
                      label={permission}
                      description={`${permissionDescriptions[permission]}. Every member holds it.`}
                      checked
                      disabled
                      readOnly
                    />
                  ) : (
                    <Checkbox
                      key={permission}
                      name={fields.permissions.name}
                      form={fields.permissions.formId}
                      value={permission}
                      label={permission}
                      description={permissionDescriptions[permission]}
                      defaultChecked={chosen.has(permission)}
                    />
                  ),
                )}
              </Stack>
            </Paper>
          ))}
        </SimpleGrid>
        {permissionsError ? (
          <Text c="red" size="sm" id={fields.permissions.errorId} role="alert">
            {permissionsError}
          </Text>
        ) : null}
      </Stack>
    </Stack>
  );
}
