// Apart from cloud-providers.ts, which the environments list and every environment page read for the providers'
// labels and regions: a schema there would bring zod to pages that validate no form (decision 064).
import * as z from "zod";
import { cloudProviders } from "./cloud-providers";

export const cloudProviderSchema = z.enum(cloudProviders, { error: "Cloud provider is a required field" });
