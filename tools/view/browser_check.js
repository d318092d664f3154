// Drives gem-view's page in Debian's headless Chromium (playwright-core,
// no downloaded browser) and prints, as one JSON object, what the page drew
// at each tick asked for, what its charts hold, what a click on a chart
// and play did to the clock, and whether the screenshot has content. The
// caller (tests/tools/view/view_test.py) compares it with the index.
//
//   node browser_check.js URL TICKS_JSON SCREENSHOT.png
"use strict";
const { launch } = require("./chromium.js");

async function main() {
  const [url, ticksJson, shot] = process.argv.slice(2);
  const ticks = JSON.parse(ticksJson);
  const browser = await launch();
  const out = { frames: {}, errors: [] };
  try {
    const page = await browser.newPage({ viewport: { width: 1300, height: 1500 } });
    page.on("pageerror", (e) => out.errors.push(String(e)));
    await page.goto(url);
    await page.waitForFunction(() => window.gemView && window.gemView.ready, null,
      { timeout: 60000 });
    out.error = await page.evaluate(() => window.gemView.error);
    if (!out.error) {
      for (const t of ticks) {
        const n = await page.evaluate(() => window.gemView.frames);
        await page.evaluate((tick) => window.gemView.seek(tick), t);
        await page.waitForFunction((k) => window.gemView.frames > k, n, { timeout: 30000 });
        out.frames[t] = await page.evaluate(() => ({ tick: window.gemView.tick,
          drawn: window.gemView.drawn, deadlock: window.gemView.deadlock || null,
          panel: document.getElementById("match").textContent }));
      }
      // Distinct colours on the map canvas: a blank one has one.
      out.map_colours = await page.evaluate(() => {
        const c = document.getElementById("map");
        const d = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
        const seen = new Set();
        for (let i = 0; i < d.length && seen.size < 1000; i += 4 * 7) {
          seen.add((d[i] << 16) | (d[i + 1] << 8) | d[i + 2]);
        }
        return seen.size;
      });
      out.charts = await page.evaluate(() => window.gemView.chartData);
      out.background = await page.evaluate(() => window.gemView.background);
      out.marks = await page.evaluate(() => window.gemView.marks);
      // A click in the middle of the first chart seeks there.
      const chart = await page.$("#charts .u-over");
      if (chart) {
        const before = await page.evaluate(() => window.gemView.tick);
        const box = await chart.boundingBox();
        await page.mouse.click(box.x + box.width * 0.5, box.y + box.height * 0.5);
        await page.waitForFunction((b) => window.gemView.tick !== b, before, { timeout: 10000 });
        out.click = { before, after: await page.evaluate(() => window.gemView.tick) };
      }
      // Play for a second at 4x.
      await page.selectOption("#speed", "4");
      const t0 = await page.evaluate(() => { window.gemView.play(); return window.gemView.tick; });
      await page.waitForTimeout(1000);
      const t1 = await page.evaluate(() => { window.gemView.pause(); return window.gemView.tick; });
      out.play = { before: t0, after: t1 };
      // And at 0.25x, where a screen frame is a fraction of a tick, from the
      // start (short fixtures end within a second of 4x).
      const n0 = await page.evaluate(() => window.gemView.frames);
      await page.evaluate(() => window.gemView.seek(Number(document.getElementById("scrub").min)));
      await page.waitForFunction((k) => window.gemView.frames > k, n0, { timeout: 30000 });
      await page.selectOption("#speed", "0.25");
      const s0 = await page.evaluate(() => { window.gemView.play(); return window.gemView.tick; });
      await page.waitForTimeout(1500);
      const s1 = await page.evaluate(() => { window.gemView.pause(); return window.gemView.tick; });
      out.slow = { before: s0, after: s1 };
    }
    await page.screenshot({ path: shot });
  } finally {
    await browser.close();
  }
  process.stdout.write(JSON.stringify(out));
}

main().catch((e) => {
  process.stderr.write(String(e.stack || e) + "\n");
  process.exit(1);
});
