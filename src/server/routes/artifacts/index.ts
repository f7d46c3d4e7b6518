/** The artifacts section of the reference server (being built): mirrors and artifact repositories. */
import { defineHandlers } from "../../context.js";
import type { Section } from "../section.js";

export const section: Section = {
  name: "artifacts",
  handlers: defineHandlers({}),
};
