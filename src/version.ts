/** phctl's version (test/unit/version.test.ts keeps it equal to package.json's). */
export const VERSION = "0.1.0";
