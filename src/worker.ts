// The demo app's Worker entry (wrangler `main`): `npm run dev` serves it on 127.0.0.1:8787.
import { demoApp } from "./demo/app.js";
import { createWorker } from "./handlers/create-worker.js";

export { AppObject, SessionObject, TurnObject, UserObject } from "./index.js";

export default createWorker({ apps: [demoApp] });
