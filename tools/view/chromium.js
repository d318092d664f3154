// Debian's headless Chromium as the browser tests start it (playwright-core,
// no downloaded browser; GEM_CHROMIUM names another binary): no sandbox as
// root, no GPU, and none of the background connections this machine's
// closed network would refuse.
"use strict";
const { chromium } = require("playwright-core");

function launch() {
  return chromium.launch({
    executablePath: process.env.GEM_CHROMIUM || "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
}

module.exports = { launch };
