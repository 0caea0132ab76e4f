import { useInputControl, type FieldMetadata } from "@conform-to/react";
import { Alert, FileInput, Group, Loader, Paper, Stack, Text } from "@mantine/core";
import { useFetcher } from "@remix-run/react";
import { useEffect, useState } from "react";
import { SERVERLESS_UPLOAD_MAX_BYTES } from "#contract/service-catalogue";
import { type ServerlessUpload } from "#contract/services";
import { servicePagePaths } from "../paths";
import { formatBytes } from "./format-bytes";

/** What the upload resource route answers. */
export type ServerlessUploadResult =
  | { kind: "uploaded"; upload: ServerlessUpload }
  | { kind: "error"; message: string };

/**
 * The function archive: chosen here, sent at once to the upload resource route, and recorded in the form by the
 * upload's id (the hidden `config.uploadId`). What was uploaded stays shown by name and size.
 */
export function ArchiveUpload({
  field,
  environmentName,
}: {
  field: FieldMetadata<string>;
  environmentName: string;
}) {
  const fetcher = useFetcher<ServerlessUploadResult>();
  const control = useInputControl(field);
  const [chosen, setChosen] = useState<File | null>(null);
  const [uploaded, setUploaded] = useState<ServerlessUpload | null>(null);
  const uploading = fetcher.state !== "idle";
  const result = fetcher.data;

  useEffect(() => {
    if (result?.kind !== "uploaded") return;
    setUploaded(result.upload);
    control.change(result.upload.id);
    // Only a new result counts; `control` changes identity on every render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [result]);

  const choose = (file: File | null) => {
    setChosen(file);
    if (!file) return;
    const body = new FormData();
    body.set("file", file, file.name);
    fetcher.submit(body, {
      method: "post",
      action: servicePagePaths.serverlessUpload(environmentName),
      encType: "multipart/form-data",
    });
  };

  const error = result?.kind === "error" ? result.message : field.errors?.[0];
  return (
    <Stack gap="xs">
      <input type="hidden" name={field.name} form={field.formId} value={control.value ?? ""} readOnly />
      <FileInput
        label="Function archive (.zip)"
        description={`A zip of your code and its dependencies, at most ${formatBytes(SERVERLESS_UPLOAD_MAX_BYTES)}`}
        placeholder="Choose a .zip file"
        accept=".zip,application/zip"
        value={chosen}
        onChange={choose}
        clearable={false}
        disabled={uploading}
        required
        error={error}
        rightSection={uploading ? <Loader size="xs" aria-label="Uploading" /> : null}
      />
      {uploading ? (
        <Text size="sm" c="dimmed" role="status">
          Uploading {chosen?.name}…
        </Text>
      ) : null}
      {uploaded && !uploading ? (
        <Paper withBorder p="sm" role="status" aria-label="Uploaded archive">
          <Group justify="space-between">
            <Text size="sm" fw={600}>
              {uploaded.fileName}
            </Text>
            <Text size="sm" c="dimmed">
              {formatBytes(uploaded.sizeBytes)} uploaded
            </Text>
          </Group>
        </Paper>
      ) : null}
      {result?.kind === "error" && uploaded && !uploading ? (
        <Alert color="yellow">The archive above is still the one the function will use.</Alert>
      ) : null}
    </Stack>
  );
}
