// @ts-check
// eslint 9 (flat config) over the page's JavaScript: `make lint` runs `npx eslint js
// isolation-worker.js` from web/ (see docs/testing.md, "Checked JavaScript"). The recommended
// rules, plus no-unused-vars (every argument and caught error too, unless its name starts with
// "_") and no-implicit-globals (in the classic scripts: a module has no implicit globals).
import js from "@eslint/js";
import globals from "globals";

const rules = {
  "no-unused-vars": ["error", { args: "all", argsIgnorePattern: "^_", caughtErrors: "all",
    caughtErrorsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
  "no-implicit-globals": "error",
};

export default [
  { ignores: ["js/vendor/**", "node_modules/**", "boot/**"] },
  js.configs.recommended,
  // The page's modules (app.js, the views, the engine, the state, the renderer).
  {
    files: ["js/**/*.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: { ...globals.browser } },
    rules,
  },
  // The module workers: a dedicated worker's globals (self, postMessage), no document.
  {
    files: ["js/workers/**/*.js"],
    languageOptions: { globals: { ...globals.worker } },
  },
  // The classic scripts the page loads before and after its modules (<script> without type).
  {
    files: ["js/engine/isolation.js", "js/opened-from-file.js"],
    languageOptions: { sourceType: "script" },
  },
  // The site's service worker (a classic script at the site's root).
  {
    files: ["isolation-worker.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "script", globals: { ...globals.serviceworker } },
    rules,
  },
  // This file and the tools that run under node.
  {
    files: ["eslint.config.js", "tools/**/*.mjs"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: { ...globals.node } },
    rules,
  },
];
