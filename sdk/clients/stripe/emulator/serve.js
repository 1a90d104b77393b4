// Starts the pinned Stripe emulator (stripe-stateful-mock) on loopback only, on a free port, and
// prints "listening http://127.0.0.1:PORT". The package's own launcher listens on every interface
// on port 8000; this one does not. Run by run.sh from the install folder under target/.
"use strict";
const log = require("loglevel");
log.setLevel(process.env.LOG_LEVEL || "warn");
const { createExpressApp } = require("stripe-stateful-mock");

const server = createExpressApp().listen(0, "127.0.0.1", () => {
  console.log(`listening http://127.0.0.1:${server.address().port}`);
});
process.on("SIGTERM", () => server.close(() => process.exit(0)));
