import { data } from "@remix-run/node";
import { invitationEmailSchema } from "#contract/invitations";
import { userMessageOf } from "~/platform/action-errors.server";
import { isPlatformError, type PlatformClient } from "~/platform/client.server";
import { cancelInvitation, reinvite } from "~/platform/invitations.server";
import { dataWithToast } from "~/toast.server";

/**
 * Re-send and cancel, the two changes the invitation pages offer (an `intent` field and the address). A
 * re-send answers with the sent invitation, so the page can show a new link to copy when no mail went out.
 */
export async function handleInvitationIntent(
  request: Request,
  { api, tenantId, headers }: { api: PlatformClient; tenantId: string; headers: Headers },
) {
  const form = await request.formData();
  const intent = form.get("intent");
  const email = invitationEmailSchema.safeParse(form.get("email"));
  if (!email.success || (intent !== "reinvite" && intent !== "cancel")) {
    return data({ error: "Choose an invitation to re-send or cancel", sent: null }, { status: 400, headers });
  }
  try {
    if (intent === "reinvite") {
      const sent = await reinvite(api, tenantId, email.data);
      return dataWithToast(
        { error: null, sent },
        {
          variant: "success",
          message: `Invitation to ${email.data} re-sent${sent.mail.delivered ? "" : " (no mail was sent)"}`,
        },
        { headers },
      );
    }
    await cancelInvitation(api, tenantId, email.data);
    return dataWithToast(
      { error: null, sent: null },
      { variant: "success", message: `Invitation to ${email.data} cancelled` },
      { headers },
    );
  } catch (error) {
    if (!isPlatformError(error)) throw error;
    const message = userMessageOf(error);
    return dataWithToast(
      { error: message, sent: null },
      { variant: "error", message },
      { status: error.status || 502, headers },
    );
  }
}
