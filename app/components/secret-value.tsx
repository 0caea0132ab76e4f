import { Code, CopyButton, Group } from "@mantine/core";
import { useFetcher } from "@remix-run/react";
import { useEffect, useState } from "react";
import { SECRET_MASK } from "#contract/environments";
import { Button } from "~/components/button";
import { GetFormButton } from "~/components/get-form-button";
import { showToast } from "~/components/toaster";
import { RestrictedButton } from "~/components/restricted";

/** A secret's plaintext as a reveal route answers it, or why it could not be read. */
export type RevealedSecret = { kind: "value"; value: string } | { kind: "error"; message: string };

/**
 * A secret: masked, revealed on request from `revealUrl` (a resource route answering RevealedSecret, read anew
 * each time, so the value is never in page data), hidden again; `copyable` adds a copy button while it shows.
 * With `revealQuery` the buttons also work without JavaScript: Reveal asks for the page with that query, whose
 * loader then passes this one value as `revealedValue`, and Hide for the page without it.
 */
export function SecretValue({
  revealUrl,
  label,
  testId,
  copyable = false,
  revealQuery,
  revealedValue = null,
  revealAllowed = true,
}: {
  revealUrl: string;
  /** Names the secret in the buttons' accessible names ("Reveal {label}"). */
  label: string;
  testId: string;
  copyable?: boolean;
  revealQuery?: Record<string, string>;
  revealedValue?: string | null;
  /** Whether the user may reveal secrets (SPEC §6); without, Reveal is restricted and the value stays masked. */
  revealAllowed?: boolean;
}) {
  const fetcher = useFetcher<RevealedSecret>();
  const [revealed, setRevealed] = useState(false);
  const [hiddenAgain, setHiddenAgain] = useState(false);
  const answer = fetcher.state === "idle" ? fetcher.data : undefined;

  useEffect(() => {
    if (answer?.kind === "error") {
      showToast({ variant: "error", message: answer.message });
      setRevealed(false);
    }
  }, [answer]);

  const revealedByPage = revealedValue !== null && !hiddenAgain ? revealedValue : null;
  const shown = revealed && answer?.kind === "value" ? answer.value : revealedByPage;
  const reveal = () => {
    setRevealed(true);
    fetcher.load(revealUrl);
  };
  const hide = () => {
    setRevealed(false);
    setHiddenAgain(true);
  };
  return (
    <Group gap="xs" wrap="nowrap">
      <Code data-testid={testId}>{shown ?? SECRET_MASK}</Code>
      {shown === null ? (
        !revealAllowed ? (
          <RestrictedButton variant="ghost" size="small" aria-label={`Reveal ${label}`}>
            Reveal
          </RestrictedButton>
        ) : revealQuery ? (
          <GetFormButton
            variant="ghost"
            size="small"
            loading={fetcher.state !== "idle"}
            aria-label={`Reveal ${label}`}
            query={revealQuery}
            onActivate={reveal}
          >
            Reveal
          </GetFormButton>
        ) : (
          <Button
            variant="ghost"
            size="small"
            loading={fetcher.state !== "idle"}
            aria-label={`Reveal ${label}`}
            onClick={reveal}
          >
            Reveal
          </Button>
        )
      ) : (
        <>
          {revealQuery ? (
            <GetFormButton
              variant="ghost"
              size="small"
              aria-label={`Hide ${label}`}
              query={{}}
              onActivate={hide}
            >
              Hide
            </GetFormButton>
          ) : (
            <Button variant="ghost" size="small" aria-label={`Hide ${label}`} onClick={hide}>
              Hide
            </Button>
          )}
          {copyable ? (
            <CopyButton value={shown}>
              {({ copied, copy }) => (
                <Button variant="ghost" size="small" aria-label={`Copy ${label}`} onClick={copy}>
                  {copied ? "Copied" : "Copy"}
                </Button>
              )}
            </CopyButton>
          ) : null}
        </>
      )}
    </Group>
  );
}
