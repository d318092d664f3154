// Drives gem-view's page over a live index (gem-index --follow, still
// being written) in Debian's headless Chromium and prints, as one JSON
// object, what the page showed as the index grew: the scrubber's end, the
// clock, whether it followed the live edge, the charts' length, after each
// commit it took in; a seek of the user's away from the edge and a click
// on the Live button; and what it showed once the match ended. The caller
// (tests/tools/view/view_live_test.py) judges it against the finished index.
//
//   node live_check.js URL TIMEOUT_SECONDS
"use strict";
const { launch } = require("./chromium.js");

async function main() {
  const [url, timeoutText] = process.argv.slice(2);
  const deadline = Date.now() + Number(timeoutText) * 1000;
  const browser = await launch();
  const out = { samples: [], errors: [] };
  try {
    const page = await browser.newPage({ viewport: { width: 1300, height: 1200 } });
    page.on("pageerror", (e) => out.errors.push(String(e)));
    await page.goto(url);
    await page.waitForFunction(() => window.gemView && window.gemView.ready, null,
      { timeout: 60000 });
    const state = () => page.evaluate(() => {
      const g = window.gemView, scrub = document.getElementById("scrub");
      const charts = Object.values(g.chartData || {});
      return { updates: g.live.updates, live: g.live.live, last_tick: g.live.last_tick,
        max: Number(scrub.max), tick: g.tick, following: !!g.following,
        button: !document.getElementById("live").hidden,
        chart_ticks: charts.length ? charts[0].ticks.length : 0, error: g.error,
        ready: g.ready };
    });
    out.first = await state();
    let phase = "follow", seen = out.first.updates;
    while (Date.now() < deadline) {
      await page.waitForTimeout(100);
      const s = await state();
      // (Not while a commit or the finished index is being loaded.)
      if (s.updates === seen || !s.ready) continue;
      seen = s.updates;
      s.phase = phase;
      out.samples.push(s);
      if (!s.live) break;
      if (phase === "follow" && out.samples.length >= 2) {
        // The user scrubs back to the start: the clock stays there.
        await page.$eval("#scrub", (el) => {
          el.value = el.min;
          el.dispatchEvent(new Event("input"));
        });
        phase = "away";
      } else if (phase === "away") {
        out.away = await state();
        await page.click("#live");
        await page.waitForTimeout(300);
        out.clicked = await state();
        phase = "followed";
      }
    }
    await page.waitForFunction(() => window.gemView.ready && !window.gemView.live.live, null,
      { timeout: Math.max(1000, deadline - Date.now()) });
    await page.waitForTimeout(500);
    out.end = await state();
  } finally {
    await browser.close();
  }
  console.log(JSON.stringify(out));
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
