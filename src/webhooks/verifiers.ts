import { bearer } from "./bearer.js";
import { github } from "./github.js";
import { slack } from "./slack.js";
import { standardWebhooks } from "./standard-webhooks.js";
import { stripe } from "./stripe.js";

/**
 * The signature schemes a hook can require, each taking the name of the Worker secret holding its key.
 * @example
 * webhook({ name: "github", verify: verifiers.github({ secretName: "GITHUB_WEBHOOK_SECRET" }), toTurn })
 */
export const verifiers = { github, slack, stripe, standardWebhooks, bearer } as const;
