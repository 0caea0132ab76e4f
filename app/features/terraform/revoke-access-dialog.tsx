import { Anchor, Code, Group, Modal, Stack, Text } from "@mantine/core";
import { awsRegions } from "#contract/aws-regions";
import { Button } from "~/components/button";
import { iamRolesConsoleUrl } from "./paths";

export const REVOKE_ACCESS_LABEL = "Revoke Cloud Console's AWS access";

/** SPEC §2.4: where to delete the role named after the product, in the region the user chose. */
export function RevokeAccessDialog({
  opened,
  onClose,
  region,
  roleName,
}: {
  opened: boolean;
  onClose: () => void;
  region: string;
  roleName: string | null;
}) {
  const regionLabel = awsRegions.find((candidate) => candidate.code === region)?.label ?? region;
  return (
    <Modal opened={opened} onClose={onClose} title={REVOKE_ACCESS_LABEL} centered>
      <Stack gap="md">
        <Text>
          Cloud Console reads your account through a read-only IAM role. To revoke that access, follow the
          link to the IAM roles page of the AWS console in {regionLabel} and delete the role{" "}
          {roleName ? <Code>{roleName}</Code> : "whose name starts with CloudConsoleReadOnly"}.
        </Text>
        <Anchor href={iamRolesConsoleUrl(region)} target="_blank" rel="noopener noreferrer">
          Open IAM roles in the AWS console
        </Anchor>
        <Group justify="flex-end">
          <Button variant="secondary" onClick={onClose}>
            Close
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
