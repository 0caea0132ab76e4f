import { Anchor, Stack, Text } from "@mantine/core";

/** SPEC §2.3: the credit to the open-source tool whose approach the generator follows, and the copyright. */
export function ToolFooter({ year }: { year: number }) {
  return (
    <Stack gap={2} component="footer" ta="center">
      <Text size="xs" c="dimmed">
        Terraform generation follows the approach of{" "}
        <Anchor
          href="https://github.com/GoogleCloudPlatform/terraformer"
          target="_blank"
          rel="noopener noreferrer"
          size="xs"
        >
          Terraformer
        </Anchor>
        , the open-source code generation tool that turns existing infrastructure into Terraform.
      </Text>
      <Text size="xs" c="dimmed">
        © {year} Cloud Console. All rights reserved.
      </Text>
    </Stack>
  );
}
