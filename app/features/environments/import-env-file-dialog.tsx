import { getFormProps, useForm } from "@conform-to/react";
import { getZodConstraint } from "@conform-to/zod/v4";
import { parseWithZod } from "@conform-to/zod/v4";
import { Anchor, Badge, FileInput, Group, Modal, Stack, Switch, Text, Textarea, Title } from "@mantine/core";
import { Form, useActionData, useFetcher, useNavigation } from "@remix-run/react";
import { useEffect, useState } from "react";
import { Button } from "~/components/button";
import { GetFormButton } from "~/components/get-form-button";
import { FormErrors } from "~/components/forms";
import { UnsavedChangesDialog } from "~/components/unsaved-changes-dialog";
import { useUnsavedChanges } from "~/hooks/use-unsaved-changes";
import { environmentPagePaths } from "./paths";
import { CancelButton } from "./variable-form-dialog";
import {
  importEnvFileSchema,
  MAX_ENV_FILE_CHARACTERS,
  type ImportPreview,
  variableDialogQuery,
  type VariablesActionData,
} from "./variable-forms";

export function ImportEnvFileButton() {
  const [opened, setOpened] = useState(false);
  return (
    <>
      <GetFormButton
        variant="secondary"
        size="small"
        query={variableDialogQuery({ kind: "import" })}
        onActivate={() => setOpened(true)}
      >
        Import .env file
      </GetFormButton>
      <Modal opened={opened} onClose={() => setOpened(false)} title="Import a .env file" centered size="lg">
        {opened ? <ImportEnvFileForm onDone={() => setOpened(false)} /> : null}
      </Modal>
    </>
  );
}

/**
 * Step one reads a .env file (chosen or pasted) and previews which names are new, changed or unchanged; step
 * two applies exactly that file. Editing the text after a preview asks for a new preview.
 */
export function ImportEnvFileForm({ onDone, inline = false }: { onDone?: () => void; inline?: boolean }) {
  const fetcher = useFetcher<VariablesActionData>();
  const actionData = useActionData<VariablesActionData>();
  const navigation = useNavigation();
  const FormElement = inline ? Form : fetcher.Form;
  const answer = inline ? actionData : fetcher.state === "idle" ? fetcher.data : undefined;
  // In the page (no JavaScript) the text comes back with the preview of it.
  const submitted =
    inline && typeof answer?.initialValue?.content === "string" ? answer.initialValue.content : "";
  const [content, setContent] = useState(submitted);
  const [fileProblem, setFileProblem] = useState<string | null>(null);
  /** The text the shown preview is about. */
  const [previewedContent, setPreviewedContent] = useState<string | null>(submitted || null);
  const submitting = (intent: string) =>
    inline
      ? navigation.state === "submitting" && navigation.formData?.get("intent") === intent
      : fetcher.state !== "idle" && fetcher.formData?.get("intent") === intent;
  const [form, fields] = useForm({
    id: "import-env-file",
    lastResult: answer,
    constraint: getZodConstraint(importEnvFileSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: importEnvFileSchema }),
    shouldValidate: "onSubmit",
  });
  const unsavedChanges = useUnsavedChanges(content !== "", { formId: form.id });
  const applied = !inline && answer?.status === "success" && !answer.preview;
  useEffect(() => {
    if (applied) onDone?.();
  }, [applied, onDone]);

  const preview = answer?.preview && previewedContent === content ? answer.preview : null;
  const applicable = preview ? preview.added.length + preview.changed.length : 0;

  const readFile = (file: File | null) => {
    setFileProblem(null);
    if (!file) return;
    if (file.size > MAX_ENV_FILE_CHARACTERS) {
      setFileProblem(`The file must be at most ${MAX_ENV_FILE_CHARACTERS} bytes`);
      return;
    }
    file.text().then(setContent, () => setFileProblem("The file could not be read"));
  };

  return (
    <FormElement method="post" {...getFormProps(form)}>
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          Lines like <code>NAME=value</code>; comments and quotes work as in dotenv. Start from the{" "}
          <Anchor href={environmentPagePaths.sampleEnvFile} download>
            sample template
          </Anchor>
          .
        </Text>
        <FormErrors errors={form.errors} id={form.errorId} />
        {inline ? null : (
          <FileInput
            label="Choose a .env file"
            placeholder="No file chosen"
            accept=".env,text/plain"
            clearable
            onChange={readFile}
            error={fileProblem}
          />
        )}
        <Textarea
          id={fields.content.id}
          name={fields.content.name}
          label="Contents"
          description="Read from the chosen file; you can also paste or edit it here."
          value={content}
          onChange={(event) => setContent(event.currentTarget.value)}
          autosize
          minRows={4}
          maxRows={12}
          styles={{ input: { fontFamily: "var(--mantine-font-family-monospace)" } }}
          error={fields.content.errors?.[0]}
        />
        {preview ? <ImportPreviewList preview={preview} /> : null}
        {preview && applicable ? <Switch name="secret" label="Store new variables as secrets" /> : null}
        <Group justify="flex-end" gap="sm">
          <CancelButton inline={inline} onDone={onDone} />
          <Button
            type="submit"
            name="intent"
            value="preview-import"
            variant={preview ? "secondary" : "primary"}
            // Without JavaScript the button cannot follow the text area, so it stays enabled there.
            disabled={!inline && content.trim() === ""}
            loading={submitting("preview-import")}
            onClick={() => setPreviewedContent(content)}
          >
            Preview changes
          </Button>
          {preview ? (
            <Button
              type="submit"
              name="intent"
              value="apply-import"
              disabled={applicable === 0}
              loading={submitting("apply-import")}
            >
              Apply import
            </Button>
          ) : null}
        </Group>
      </Stack>
      <UnsavedChangesDialog blocker={unsavedChanges} />
    </FormElement>
  );
}

const previewGroups = [
  { key: "added", title: "New", color: "success" },
  { key: "changed", title: "Changed", color: "warning" },
  { key: "unchanged", title: "Unchanged", color: "gray" },
] as const;

function ImportPreviewList({ preview }: { preview: ImportPreview }) {
  return (
    <Stack gap="sm" role="region" aria-label="Import preview">
      {previewGroups.map(({ key, title, color }) => (
        <Stack key={key} gap={4} role="group" aria-label={`${title} variables`}>
          <Group gap="xs">
            <Title order={5}>{title}</Title>
            <Badge color={color} variant="light" data-testid={`import-${key}-count`}>
              {preview[key].length}
            </Badge>
          </Group>
          {preview[key].length ? (
            <Group gap={6}>
              {preview[key].map((name) => (
                <Badge key={name} color={color} variant="outline" tt="none" ff="monospace">
                  {name}
                </Badge>
              ))}
            </Group>
          ) : (
            <Text size="sm" c="dimmed">
              None
            </Text>
          )}
        </Stack>
      ))}
      {preview.skipped.length ? (
        <Stack gap={4} role="group" aria-label="Skipped variables">
          <Title order={5}>Skipped lines</Title>
          <Text size="sm" c="dimmed">
            Applying leaves these lines out; correct the file and preview again to import them.
          </Text>
          {preview.skipped.map(({ line, name, reason }) => (
            <Text key={line} size="sm" data-testid={`skipped-line-${line}`}>
              Line {line}
              {name ? (
                <>
                  {" "}
                  <Text span ff="monospace" fw={600}>
                    {name}
                  </Text>
                </>
              ) : null}
              : {reason}
            </Text>
          ))}
        </Stack>
      ) : null}
    </Stack>
  );
}
