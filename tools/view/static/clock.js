// gem-view: the clock: seeking (the latest wish wins), playing, the marks
// under the scrubber.
"use strict";
async function seek(t, playing = false) {
  if (!playing) playClock = null;  // a seek of the user's: play goes on from there
  t = Math.max(info.first_tick, Math.min(info.last_tick, Math.round(t)));
  G.tick = t;
  $("scrub").value = t;
  wanted = t;
  if (loading) return;  // the frame in flight asks again for the latest wish
  loading = true;
  try {
    while (wanted !== null) {
      const at = wanted;
      wanted = null;
      frame = await api(`/api/m/${matchId}/frame?tick=${at}`);
    }
    draw();
  } catch (e) {
    showError(e);
  } finally {
    loading = false;
  }
}


function buildMarks() {
  const host = $("marks");
  host.innerHTML = "";
  const span = info.last_tick - info.first_tick || 1;
  const marks = [];
  if (col.round !== undefined) {
    let last = null;
    for (const r of rows) if (r[col.round] !== last) { last = r[col.round]; marks.push([r[0], "R" + last]); }
  } else {
    for (let m = 0; m < 600; m += 5) {
      const t = ticks.find((x) => gameTime(x) >= m * 60);
      if (t === undefined) break;
      marks.push([t, m + ":00"]);
    }
  }
  G.marks = marks;
  for (const [t, label] of marks) {
    const s = document.createElement("span");
    s.style.left = (100 * (t - info.first_tick)) / span + "%";
    s.textContent = label;
    host.appendChild(s);
  }
}

// Play: the clock advances by the wall clock times the speed; frames are
// fetched one at a time, the latest wish winning.
// The playing clock keeps its fraction of a tick (at 0.25x a screen frame
// is an eighth of a Dota tick): seek rounds only what it asks for.
let lastFrameTime = null, playClock = null;
function step(now) {
  if (G.playing && info) {
    if (lastFrameTime !== null) {
      const dt = (now - lastFrameTime) / 1000;
      const speed = Number($("speed").value);
      if (playClock === null) playClock = G.tick;
      playClock = Math.min(playClock + (dt * speed) / info.tick_interval, info.last_tick);
      if (playClock >= info.last_tick) G.playing = false;
      if (!loading) seek(playClock, true);
    }
    lastFrameTime = now;
  } else {
    lastFrameTime = null;
    playClock = null;
  }
  $("play").innerHTML = G.playing ? "&#10074;&#10074;" : "&#9654;";
  requestAnimationFrame(step);
}
G.seek = (t) => seek(t);
G.playClock = () => playClock;
G.play = () => { G.playing = true; };
G.pause = () => { G.playing = false; };

