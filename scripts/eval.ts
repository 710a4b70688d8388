// `npm run eval -- <app> <evalset.json>…`: the `baton-eval` bin's command (src/cli/eval-command.ts) with the
// demo Worker's apps as the default module. docs/evals.md.
//
//   npm run eval -- demo evals/demo.evalset.json
//   npm run eval -- ./src/my-app.ts evals/my.evalset.json --config evals/test_config.json
//   npm run eval -- demo evals/demo.evalset.json --record weather_lisbon "What is the weather in Lisbon?"
import { evalCommand } from "../src/cli/eval-command.js";

process.exitCode = await evalCommand(process.argv.slice(2), {
  command: "npm run eval --",
  defaultModule: "src/demo/app.ts",
  typescript: "ambient",
});
