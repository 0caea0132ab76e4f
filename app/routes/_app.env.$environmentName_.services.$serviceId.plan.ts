import { data, type LoaderFunctionArgs } from "@remix-run/node";
import * as z from "zod";
import type { ChangePlan } from "#contract/change-plans";
import { parseSubmission } from "~/components/parse-submission.server";
import { applicationConfigFormSchema } from "~/features/applications/details.server";
import { configFormSchema } from "~/features/services/details/config-form.server";
import { requireEnvironmentIdentity } from "~/features/workspace/workspace.server";
import { isPlatformError } from "~/platform/client.server";
import { getService, planServiceChange } from "~/platform/services.server";

/**
 * GET ?config.storageGb=...: the plan of the configuration form's values (any type's, an application's too) (what the cloud updates in place, what it
 * replaces and what that loses), loaded by the form as it changes; a GET, so asking does not revalidate the page.
 * An incomplete form, or a platform that cannot answer, has no plan (null): the save itself still says.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { api, tenantId, environment, headers } = await requireEnvironmentIdentity(
    request,
    params.environmentName,
  );
  const serviceId = params.serviceId ?? "";
  const noPlan = data<{ plan: ChangePlan | null }>({ plan: null }, { headers });
  try {
    const service = await getService(api, tenantId, environment.id, serviceId);
    // An application's form is its own (the contract's application schema), as its action reads it.
    const application = service.serviceType === "application";
    const submission = parseSubmission(new URL(request.url).searchParams, {
      schema: application
        ? await applicationConfigFormSchema()
        : z.object({ config: configFormSchema(service.serviceType) }),
      disableAutoCoercion: application,
    });
    if (submission.status !== "success") return noPlan;
    const { config } = submission.value as { config: Record<string, unknown> };
    const plan = await planServiceChange(api, tenantId, environment.id, serviceId, { config });
    return data({ plan }, { headers });
  } catch (error) {
    if (!isPlatformError(error)) throw error;
    return noPlan;
  }
}
