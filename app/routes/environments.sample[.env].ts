import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireUser } from "~/auth/auth.server";
import { ENV_FILE_TEMPLATE_NAME, envFileTemplate } from "~/features/environments/env-file-template";

/** The sample .env template (SPEC §9), downloaded as a file to fill in and import. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  return new Response(envFileTemplate(), {
    headers: {
      "Content-Type": "text/plain; charset=utf-8",
      "Content-Disposition": `attachment; filename="${ENV_FILE_TEMPLATE_NAME}"`,
      "Cache-Control": "private, max-age=3600",
    },
  });
}
