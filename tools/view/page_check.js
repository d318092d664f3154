// Drives gem-view's match page in Debian's headless Chromium
// (playwright-core, no downloaded browser) and prints, as one JSON object,
// what the page showed: the numbers it drew (window.gemView.page), the
// charts' clock labels, and what its controls did: the M key shows it, a
// click on a CS2 round seeks the map to the round's start, a click on a
// Dota teamfight seeks to it and draws its area, the clock moves the items
// column, the ward map's range narrows what it draws; and the text the page
// shows (`dom`: its tables' cells as read off the page, and all its visible
// text, over the map and over the match page), for the names a reader sees.
// The caller (tests/tools/view/view_page_test.py) compares it with SQL.
//
//   node page_check.js URL SCREENSHOT.png [TICKS_JSON]
//
// At each of TICKS (the map shown), window.gemView.cs2: CS2's round clock,
// grenades, areas and bomb as the map drew them.
"use strict";
const { launch } = require("./chromium.js");

// What the match page shows, as text read off its tables: the players'
// rows, the draft, Dota's skill grids, item timings and each teamfight's
// players, by slot (the rows' data-slot).
function pageDom() {
  const text = (el) => el.textContent.trim();
  const cellsOf = (tr) => [...tr.children].map(text);
  const bySlot = (sel) => Object.fromEntries([...document.querySelectorAll(sel)]
    .map((tr) => [tr.dataset.slot, cellsOf(tr)]));
  const grids = {};
  for (const t of document.querySelectorAll("#page table.skills")) {
    const [head, ...rows] = [...t.querySelectorAll("tr")].map(cellsOf);
    grids[t.dataset.slot] = { head, rows };
  }
  const times = {};
  for (const tr of document.querySelectorAll("#itemtimes tr[data-slot]")) {
    times[tr.dataset.slot] = { hero: text(tr.children[0]),
      buys: [...tr.querySelectorAll(".buy")].map(text) };
  }
  // Each fight's players in the order shown: [slot, ...cells].
  const fights = [...document.querySelectorAll("#fights tr[data-fight]")].map((tr) => ({
    id: Number(tr.dataset.fight),
    players: [...tr.querySelectorAll("table.mini tr[data-slot]")]
      .map((r) => [Number(r.dataset.slot), ...cellsOf(r)]) }));
  return { players: bySlot("#players tr[data-slot]"), grids, times, fights,
    draft: [...document.querySelectorAll("#page .draft li")].map(text),
    text: document.body.innerText };
}

async function main() {
  const [url, shot, ticksJson] = process.argv.slice(2);
  const ticks = JSON.parse(ticksJson || "[]");
  const browser = await launch();
  const out = { errors: [] };
  const G = () => window.gemView;
  try {
    // A report (file://) opens with the network off: any request that is
    // not for the file itself is refused and named.
    const report = url.startsWith("file:");
    const page = await browser.newPage({ viewport: { width: 1300, height: 1500 },
      offline: report });
    page.on("pageerror", (e) => out.errors.push(String(e)));
    out.requests = [];
    if (report) {
      await page.route("**/*", (route) => {
        const u = route.request().url();
        if (u.startsWith("file:") || u.startsWith("blob:") || u.startsWith("data:")) {
          return route.continue();
        }
        out.requests.push(u);
        return route.abort();
      });
    }
    await page.goto(url);
    await page.waitForFunction(() => window.gemView && window.gemView.ready, null,
      { timeout: 60000 });
    out.error = await page.evaluate(() => window.gemView.error);
    out.states = {};
    for (const t of ticks) {
      const n = await page.evaluate(() => window.gemView.frames);
      await page.evaluate((tick) => window.gemView.seek(tick), t);
      await page.waitForFunction((k) => window.gemView.frames > k, n, { timeout: 30000 });
      out.states[t] = await page.evaluate(() => ({ cs2: window.gemView.cs2 || null,
        time: document.getElementById("time").textContent }));
    }
    // Heatmaps: each kind, of a team over minutes 1 to 3 (CS2's grenades:
    // rounds 2 to 3), then everyone's positions saved as a PNG.
    out.heatmaps = {};
    const kinds = await page.evaluate(() => [...document.querySelectorAll("#heat option")]
      .map((o) => o.value).filter(Boolean));
    for (const kind of kinds) {
      const rounds = kind === "grenades";
      await page.selectOption("#heatunit", rounds ? "round" : "min");
      await page.fill("#heatfrom", report ? "" : rounds ? "2" : "1");
      await page.fill("#heatto", report ? "" : rounds ? "3" : "3");
      await page.selectOption("#heatwho", "team:2");
      await page.evaluate(() => { window.gemView.heatmap = null; });
      await page.selectOption("#heat", kind);
      await page.waitForFunction((k) => window.gemView.heatmap &&
        window.gemView.heatmap.kind === k, kind, { timeout: 30000 });
      out.heatmaps[kind] = await page.evaluate(() => window.gemView.heatmap);
    }
    if (kinds.length) {
      await page.fill("#heatfrom", "");
      await page.fill("#heatto", "");
      await page.selectOption("#heatwho", "");
      await page.evaluate(() => { window.gemView.heatmap = null; });
      await page.selectOption("#heat", "positions");
      await page.waitForFunction(() => window.gemView.heatmap &&
        window.gemView.heatmap.kind === "positions" && window.gemView.heatmap.who === "" &&
        window.gemView.heatmap.from === Number(document.getElementById("scrub").min),
      null, { timeout: 30000 });
      out.heatmaps.all_positions = await page.evaluate(() => window.gemView.heatmap);
      const [download] = await Promise.all([page.waitForEvent("download"), page.click("#png")]);
      const path = shot.replace(/\.png$/, "") + "-heatmap.png";
      await download.saveAs(path);
      out.png = path;
    }
    out.clock = await page.evaluate(() => Object.fromEntries(Object.entries(
      window.gemView.chartData || {}).map(([k, v]) => [k, v.clock])));
    // The browser's own timings: the first frame of the map drawn (since
    // the page began loading); 40 seeks to spread ticks, each frame
    // request's time (Resource Timing); then the match page shown.
    out.timings = { first_paint_ms: await page.evaluate(() => window.gemView.firstPaint) };
    if (!report) {
      const [lo, hi] = await page.evaluate(() => [Number(document.getElementById("scrub").min),
        Number(document.getElementById("scrub").max)]);
      for (let i = 0; i < 40; i++) {
        const n = await page.evaluate(() => window.gemView.frames);
        await page.evaluate((t) => window.gemView.seek(t), Math.round(lo + (hi - lo) * ((i * 7919) % 40) / 40));
        await page.waitForFunction((k) => window.gemView.frames > k, n, { timeout: 30000 });
      }
      out.timings.frame_ms = await page.evaluate(() => performance.getEntriesByType("resource")
        .filter((e) => e.name.includes("/frame?")).map((e) => e.responseEnd - e.startTime));
    }
    // The map's visible text (the side panel, the kill feed) at the last
    // tick, before the page.
    const end = await page.evaluate(() => Number(document.getElementById("scrub").max));
    const before = await page.evaluate(() => window.gemView.frames);
    await page.evaluate((t) => window.gemView.seek(t), end);
    await page.waitForFunction((k) => window.gemView.frames > k, before, { timeout: 30000 });
    out.map_text = await page.evaluate(() => document.body.innerText);
    out.map_tick = await page.evaluate(() => window.gemView.tick);
    await page.keyboard.press("m");
    await page.waitForFunction(() => window.gemView.pageShown, null, { timeout: 30000 });
    out.timings.page_ms = await page.evaluate(() => window.gemView.pageMs);
    out.page = await page.evaluate(() => window.gemView.page);
    out.dom = await page.evaluate(pageDom);
    out.info = await page.evaluate(() => ({ first: Number(document.getElementById("scrub").min),
      last: Number(document.getElementById("scrub").max) }));
    if (out.page.game === "cs2" && out.page.rounds.length > 1) {
      // The second round's box.
      const box = await (await page.$("#roundbar")).boundingBox();
      const n = await page.evaluate(() => window.gemView.frames);
      await page.mouse.click(box.x + 2 + 34 * 1 + 15, box.y + 18);
      await page.waitForFunction((k) => window.gemView.frames > k, n, { timeout: 30000 });
      out.round_seek = await page.evaluate(() => ({ tick: window.gemView.tick,
        page: !document.getElementById("page").hidden }));
      // One round's view.
      await page.keyboard.press("m");
      await page.waitForFunction(() => !document.getElementById("page").hidden, null,
        { timeout: 10000 });
      await page.selectOption("#cs2round", "2");
      out.round_view = await page.evaluate(() => ({ over: window.gemView.page.over,
        players: window.gemView.page.players }));
    }
    if (out.page.game === "dota2") {
      // The items column follows the clock: at the last tick.
      await page.evaluate((t) => window.gemView.seek(t), out.info.last);
      await page.waitForFunction((t) => window.gemView.page.items &&
        window.gemView.page.items.tick === t, out.info.last, { timeout: 30000 });
      out.items_last = await page.evaluate(() => window.gemView.page.items);
      out.dom_last = await page.evaluate(pageDom);
      // The ward map over its first five minutes.
      await page.fill("#wardto", "5");
      await page.dispatchEvent("#wardto", "change");
      out.wards_5 = await page.evaluate(() => window.gemView.page.wards);
      const fight = await page.$("#fights tr[data-fight]");
      if (fight) {
        const n = await page.evaluate(() => window.gemView.frames);
        await fight.click();
        await page.waitForFunction((k) => window.gemView.frames > k, n, { timeout: 30000 });
        out.fight = await page.evaluate(() => ({ tick: window.gemView.tick,
          fight: window.gemView.fight, map: !document.getElementById("stage").hidden }));
      }
    }
    // The page's first screen, for the screenshot.
    if (await page.evaluate(() => document.getElementById("page").hidden)) {
      await page.keyboard.press("m");
      await page.waitForFunction(() => !document.getElementById("page").hidden, null,
        { timeout: 10000 });
    }
    await page.evaluate(() => {
      window.scrollTo(0, 0);
      document.getElementById("page").scrollTop = 0;
    });
    await page.screenshot({ path: shot });
  } finally {
    await browser.close();
  }
  process.stdout.write(JSON.stringify(out));
}

main().catch((e) => {
  process.stderr.write(String((e && e.stack) || e) + "\n");
  process.exit(1);
});
