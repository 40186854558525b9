// ESLint for the browser client (src/risk/web/js) and its unit tests (tests/js): `npx eslint`.
import js from "@eslint/js";
import globals from "globals";

export default [
  js.configs.recommended,
  {
    rules: {
      "prefer-const": "error",
      "no-var": "error",
      eqeqeq: ["error", "always", { null: "ignore" }],
    },
  },
  {
    files: ["src/risk/web/js/**/*.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: globals.browser },
    rules: {
      // The board page's state (`s`, `store.state`: gamestate.js) changes through its named updates only.
      // The store freezes the state itself; these catch what a freeze does not (a field's own fields).
      "no-restricted-syntax": [
        "error",
        {
          selector: [
            "AssignmentExpression[left.object.name='s']",
            "AssignmentExpression[left.object.object.name='s']",
            "UpdateExpression[argument.object.name='s']",
            "AssignmentExpression[left.object.object.name='store']",
            "AssignmentExpression[left.object.object.object.name='store']",
          ].join(", "),
          message: "The page's state is read only: change it through a named update (gamestate.js).",
        },
        {
          selector: "CallExpression[callee.object.object.name='s'][callee.property.name=/^(push|pop|shift|unshift|splice|sort|reverse|set|add|delete|clear)$/]",
          message: "The page's state is read only: change it through a named update (gamestate.js).",
        },
      ],
    },
  },
  {
    // The service worker of Web Push: a classic script in the worker's own global scope.
    files: ["src/risk/web/js/sw.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "script", globals: globals.serviceworker },
  },
  {
    files: ["tests/js/**/*.js", "eslint.config.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: globals.node },
  },
];
