import * as z from "zod";
import { stages } from "./stages";

export const stageSchema = z.enum(stages);
