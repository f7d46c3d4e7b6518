/** The git section of the reference server (being built). */
import { defineHandlers } from "../../context.js";
import type { Section } from "../section.js";

export const section: Section = {
  name: "git",
  handlers: defineHandlers({}),
};
