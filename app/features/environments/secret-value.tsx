import { Code, Group } from "@mantine/core";
import { useFetcher } from "@remix-run/react";
import { useEffect, useState } from "react";
import { SECRET_MASK } from "#contract/environments";
import { Button } from "~/components/button";
import { showToast } from "~/components/toaster";
import { environmentPagePaths } from "./paths";
import type { RevealedValue } from "./variable-reveal";

/** A secret's value: masked, revealed on request (read from the platform each time), hidden again. */
export function SecretValue({
  environmentName,
  variableId,
  variableName,
}: {
  environmentName: string;
  variableId: string;
  variableName: string;
}) {
  const fetcher = useFetcher<RevealedValue>();
  const [revealed, setRevealed] = useState(false);
  const answer = fetcher.state === "idle" ? fetcher.data : undefined;

  useEffect(() => {
    if (answer?.kind === "error") {
      showToast({ variant: "error", message: answer.message });
      setRevealed(false);
    }
  }, [answer]);

  const shown = revealed && answer?.kind === "value" ? answer.value : null;
  return (
    <Group gap="xs" wrap="nowrap">
      <Code data-testid={`value-${variableName}`}>{shown ?? SECRET_MASK}</Code>
      {shown === null ? (
        <Button
          variant="ghost"
          size="small"
          loading={fetcher.state !== "idle"}
          aria-label={`Reveal ${variableName}`}
          onClick={() => {
            setRevealed(true);
            fetcher.load(environmentPagePaths.variableValue(environmentName, variableId));
          }}
        >
          Reveal
        </Button>
      ) : (
        <Button
          variant="ghost"
          size="small"
          aria-label={`Hide ${variableName}`}
          onClick={() => setRevealed(false)}
        >
          Hide
        </Button>
      )}
    </Group>
  );
}
