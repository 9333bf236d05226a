// Turnlight's pages: the players' view (/) and the game master's console (/gm). The server
// sends a page its view whole once, then what changed (a patch of the view's top-level
// keys), and the board's LEDs as a message of their own that says what each LED does
// (steady, or bright and dim in a pattern of the board's clock): this page plays the
// patterns itself. Nothing ruleset-specific lives here: names, health, statuses and the
// table come from the view data.
"use strict";
const role = document.body.dataset.role;
const token = new URLSearchParams(location.search).get("token") || "";
let socket = null;
let view = null;
let board = null; // the last board message, and when it came (performance.now())
let stale = ""; // the server's line on why this console's token is refused

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") node.className = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v);
  }
  for (const child of children) {
    if (child === null || child === undefined) continue;
    node.append(child instanceof Node ? child : String(child));
  }
  return node;
}

function fill(id, nodes) {
  const box = document.getElementById(id);
  if (box) box.replaceChildren(...nodes);
}

function healthNode(f, name) {
  if (role === "gm") {
    if (f.health === null || !f.health_max) return null;
    return bar(f.health / f.health_max, `${name} ${f.health}/${f.health_max}`);
  }
  const h = f.health;
  if (!h) return null;
  if (h.bar !== undefined) return bar(h.bar, h.text ? `${name} ${h.text}` : name);
  return el("span", { class: "health-word" }, `${name} ${h.text}`);
}

function bar(fraction, text) {
  const pct = Math.max(0, Math.min(1, fraction)) * 100;
  const fillBar = el("span", { class: "bar-fill" });
  fillBar.style.width = `${pct}%`;
  fillBar.classList.add(pct > 50 ? "ok" : pct > 25 ? "low" : "dire");
  return el("span", { class: "health" }, el("span", { class: "bar" }, fillBar), el("span", { class: "health-text" }, text));
}

// A cooldown as the ruleset words it ("Pinning Shot 2"), said to be one.
function cooldownText(text) {
  const m = /^(.*\S)\s+(\d+)$/.exec(text);
  return m ? `${m[1]}: cooldown ${m[2]}` : `cooldown: ${text}`;
}

// The console's card whose actions show: the acting fighter's, until the game master taps
// another (or taps it shut); a new turn opens the new acting fighter's again.
let opened = null; // null: the acting fighter's; "": none; else that fighter's name
let openedTurn = ""; // whose turn it was when the game master chose
let moreOpen = ""; // the card whose "more" verbs show

// The fighters as the console lists them: from whoever acts now, on in the turn order (the
// acting fighter's card first), those before it after.
function fromTheActing(fighters) {
  const at = fighters.findIndex((f) => f.current);
  return at > 0 ? [...fighters.slice(at), ...fighters.slice(0, at)] : fighters;
}

function drawFighters(v) {
  const nextUp = v.next_up || "";
  const acting = (v.fighters.find((f) => f.current) || {}).name || "";
  if (acting !== openedTurn) { opened = null; openedTurn = acting; }
  const shown = opened === null ? acting : opened;
  const list = role === "gm" ? fromTheActing(v.fighters) : v.fighters;
  fill("fighters", list.map((f) => {
    const classes = ["fighter"];
    if (f.current) classes.push("current");
    if (f.out) classes.push("out");
    if (f.hidden) classes.push("hidden");
    if (f.name === nextUp) classes.push("next");
    const head = el("div", { class: "fighter-head" },
      el("span", { class: "name" }, f.name),
      f.name === nextUp ? el("span", { class: "next-up" }, "next up") : null,
      el("span", { class: "team" }, f.team));
    const item = el("li", { class: classes.join(" "), "data-name": f.name }, head, healthNode(f, v.health_name));
    const chips = [
      ...f.statuses.map((s) => el("span", { class: "chip" }, s)),
      ...(f.effects || []).map((s) => el("span", { class: "chip effect" }, s)),
      ...f.cooldowns.map((s) => el("span", { class: "chip cd" }, cooldownText(s))),
    ];
    if (chips.length) item.append(el("div", { class: "chips" }, ...chips));
    if (role === "gm") {
      item.classList.add("tappable");
      item.addEventListener("click", (event) => {
        if (event.target.closest(".actions")) return;
        opened = shown === f.name ? "" : f.name;
        drawFighters(view);
      });
      if (shown === f.name && v.commands) {
        item.classList.add("open");
        item.append(fighterActions(v, f));
      }
    }
    return item;
  }));
}

// The players' page on a wide screen is a TV's, which cannot scroll: a long order tightens
// its cards a step at a time (app.css, data-fit) until it fits with the newest log line;
// if even the tightest does not, it shows the acting fighter and those after it in the
// order (on from the top past its end) that fit, and a line where each run is left out.
const wide = matchMedia("(min-aspect-ratio: 4/3) and (min-width: 900px)");
const FIT_STEPS = ["", "1", "2", "3"];
let fitFor = ""; // the fighters' count and the screen's size the step was found for

function orderFits() {
  const box = document.getElementById("order-box").getBoundingClientRect().bottom + 0.5;
  const newest = document.querySelector("#log li");
  const logBox = document.getElementById("log-box").getBoundingClientRect().bottom + 0.5;
  const list = document.getElementById("fighters").getBoundingClientRect().bottom;
  return list <= box && (!newest || newest.getBoundingClientRect().bottom <= Math.min(box, logBox));
}

function setFit(step) {
  if (FIT_STEPS[step]) document.body.dataset.fit = FIT_STEPS[step];
  else delete document.body.dataset.fit;
}

function fitOrder() {
  if (role !== "player") return;
  const items = [...document.querySelectorAll("#fighters li.fighter")];
  items.forEach((li) => li.classList.remove("away")); // a window found before: gone
  markGaps(items);
  if (!wide.matches) { setFit(0); fitFor = ""; return; }
  const key = `${items.length} ${innerWidth}x${innerHeight}`;
  // The same order on the same screen starts from the step it took (no flicker each view).
  let step = key === fitFor ? Math.max(0, FIT_STEPS.indexOf(document.body.dataset.fit || "")) : 0;
  fitFor = key;
  setFit(step);
  while (!orderFits() && step < FIT_STEPS.length - 1) setFit(++step);
  if (!orderFits()) windowOrder(items);
}

function windowOrder(items) {
  const count = items.length;
  const first = Math.max(0, items.findIndex((li) => li.classList.contains("current")));
  const next = items.find((li) => li.classList.contains("next"));
  // Whoever acts, the next up, then the rest of the order from whoever acts.
  const wanted = [...items.slice(first), ...items.slice(0, first)];
  if (next) wanted.splice(wanted.indexOf(next), 1), wanted.splice(1, 0, next);
  items.forEach((li) => li.classList.add("away"));
  for (const [k, li] of wanted.entries()) {
    li.classList.remove("away");
    markGaps(items);
    if (k > 1 && !orderFits()) { li.classList.add("away"); markGaps(items); break; }
  }
}

// "… N more" in place of each run of fighters the window leaves out.
function markGaps(items) {
  document.querySelectorAll("#fighters li.gap").forEach((li) => li.remove());
  let run = [];
  const mark = () => {
    if (run.length) run[0].before(el("li", { class: "gap" }, `… ${run.length} more`));
    run = [];
  };
  for (const li of items) {
    if (li.classList.contains("away")) run.push(li);
    else mark();
  }
  mark();
}

// A phone's page scrolls: on each new turn it brings the acting fighter to the top, with
// those after it under it, unless they are in sight already.
let followed = null;
function followActing() {
  if (role !== "player") return;
  const acting = [...document.querySelectorAll("#fighters li.current")];
  const key = acting.map((li) => li.dataset.name).join("\n");
  if (key === followed) return;
  followed = key;
  const scrolls = document.scrollingElement.scrollHeight > innerHeight;
  if (!acting.length || !scrolls) return;
  const next = document.querySelector("#fighters li.next") || acting[0];
  const top = acting[0].getBoundingClientRect().top;
  if (top < 0 || next.getBoundingClientRect().bottom > innerHeight) acting[0].scrollIntoView({ block: "start" });
}
addEventListener("resize", () => { if (view) fitOrder(); });

// The console's actions on one fighter: the acting fighter's moves first (each starts the
// line), then the verbs that apply to it now, and behind "more" the rest and hiding it
// from the players' page.
function fighterActions(v, f) {
  const mine = ((v.commands && v.commands.fighters) || {})[f.name] || { word: "", verbs: [], more: [], moves: [] };
  const box = el("div", { class: "actions" });
  const start = (verb) => `${verb} ${mine.word} `;
  for (const group of mine.moves) {
    const reasons = group.reasons || {};
    box.append(el("div", { class: "row moves" },
      el("button", { class: "label", "data-verb": group.verb, onclick: () => prefill(start(group.verb)) }, group.verb),
      ...group.moves.map((move) => el("button", {
        class: "move" + (reasons[move] ? " unusable" : ""), "data-move": move, title: reasons[move] || "",
        onclick: () => prefill(`${start(group.verb)}${move} `),
      }, move.replace(/^"|"$/g, "")))));
  }
  const grouped = new Set(mine.moves.map((g) => g.verb));
  const verb = (name) => el("button", { class: "verb", "data-verb": name, onclick: () => prefill(start(name)) }, name);
  const hide = f.hidden ? "reveal" : "hide";
  const row = el("div", { class: "row verbs" }, ...mine.verbs.filter((name) => !grouped.has(name)).map(verb));
  const rest = mine.more || [];
  const open = moreOpen === f.name && rest.length > 0;
  if (rest.length) {
    row.append(el("button", {
      class: "more", "aria-expanded": String(open),
      onclick: () => { moreOpen = open ? "" : f.name; drawFighters(view); },
    }, open ? "less" : "more…"));
  }
  row.append(el("button", { class: "hide", "data-line": `${hide} "${f.name}"`, onclick: () => send(`${hide} "${f.name}"`) }, hide));
  box.append(row);
  if (open) box.append(el("div", { class: "row more-verbs" }, ...rest.map(verb)));
  return box;
}

function drawDice(v) {
  const d = v.dice;
  fill("dice", d.faces.map((f) => el("span", {
    class: "die " + (f.success === true ? "success" : f.success === false ? "failure" : "plain"),
  }, f.face)));
  const dice = document.getElementById("dice");
  if (d.value !== undefined) dice.append(el("span", { class: "dice-value" }, `= ${d.value}`));
  if (d.successes !== null && d.faces.some((f) => f.success !== null)) {
    dice.append(el("span", { class: "dice-value" }, `${d.successes} success${d.successes === 1 ? "" : "es"}`));
  }
  fill("dice-lines", d.lines.map((line) => el("li", {}, line)));
}

// An LED's colour as a screen shows it: the board's dim levels brightened (a square root),
// so dim, half and full stay apart and every lit key is seen.
function lit(hex) {
  const channels = [0, 2, 4].map((i) => parseInt(hex.slice(i, i + 2), 16));
  if (channels.every((c) => c === 0)) return "";
  const shown = channels.map((c) => Math.round(255 * Math.sqrt(c / 255)));
  return `rgb(${shown.join(",")})`;
}

// Each LED: [steady colour] or [bright, dim, period, runs] from "rrggbb/rrggbb/P/A-B,...".
function ledPlan(told) {
  const parts = told.split("/");
  if (parts.length < 4) return { steady: lit(parts[0] || "000000") };
  const runs = parts[3] ? parts[3].split(",").map((r) => r.split("-").map(Number)) : [];
  return { bright: lit(parts[0]), dim: lit(parts[1]), period: Number(parts[2]), runs };
}

let plans = [];
let animating = null;

function drawBoard(v) {
  const b = v.board || {};
  if (b.leds) {
    if (!document.querySelector("#board .leds")) fill("board", [el("div", { class: "leds" })]);
    drawLeds();
  } else if (b.text !== undefined) {
    fill("board", [el("pre", { class: "grid-text" }, b.text)]);
  } else {
    fill("board", [el("p", { class: "note" }, b.note || "")]);
  }
}

function drawLeds() {
  const grid = document.querySelector("#board .leds");
  if (!grid || !board) return;
  const { message } = board;
  if (grid.children.length !== message.leds.length) {
    grid.replaceChildren(...message.leds.map(() => el("span", { class: "led" })));
    grid.style.gridTemplateColumns = `repeat(${message.width}, 1fr)`;
  }
  plans = message.leds.map(ledPlan);
  const moving = plans.some((p) => p.period);
  if (moving && animating === null) animating = setInterval(playLeds, 50);
  if (!moving && animating !== null) { clearInterval(animating); animating = null; }
  playLeds();
}

function playLeds() {
  const grid = document.querySelector("#board .leds");
  if (!grid || !board) return;
  const now = board.message.now + (performance.now() - board.at); // the board's clock
  plans.forEach((p, i) => {
    let colour = p.steady;
    if (p.period) {
      const phase = ((now % p.period) + p.period) % p.period;
      colour = p.runs.some(([a, b]) => a <= phase && phase < b) ? p.bright : p.dim;
    }
    const led = grid.children[i];
    if (led && led.style.background !== colour) led.style.background = colour;
  });
}

function drawGm(v) {
  if (!v.table || !v.commands) return; // built once a console is open: on their way
  const t = v.table;
  const table = el("table", {}, el("thead", {}, el("tr", {}, ...t.headers.map((h) => el("th", {}, h)))));
  const body = el("tbody");
  for (const row of t.rows) {
    body.append(el("tr", { class: row.current ? "current" : "" }, ...row.cells.map((c) => el("td", {}, c))));
    if (row.note) body.append(el("tr", { class: "note" }, el("td", { colspan: t.headers.length }, row.note)));
  }
  table.append(body);
  fill("table", [table]);
  fill("odds", v.odds.map((line) => el("li", {}, line)));
  fill("notes", (v.notes || []).map((line) => el("li", {}, line)));
  const c = v.commands;
  const run = (line) => el("button", { class: "run", "data-line": line, onclick: () => send(line) }, line);
  const buttons = c.next_turn.map(run);
  for (const verb of c.bare) {
    if (c.next_turn.includes(verb)) continue;
    // `new` ends this game: asked first. The others take nothing, so they run.
    if (verb === "new") {
      buttons.push(el("button", { class: "run", "data-line": verb, onclick: () => { if (confirm("End this game and start a new one?")) send(verb); } }, verb));
    } else buttons.push(run(verb));
  }
  fill("buttons", buttons);
  const more = [];
  for (const verb of [...c.verbs, ...c.session_verbs]) {
    if (c.next_turn.includes(verb) || c.bare.includes(verb)) continue;
    const start = (c.prefill && c.prefill[verb]) || verb + " ";
    more.push(el("button", { class: "verb", "data-verb": verb, onclick: () => prefill(start) }, verb + "…"));
  }
  fill("more-verbs", more);
  const mode = document.getElementById("health-mode");
  if (document.activeElement !== mode) mode.value = v.settings.health;
}

function drawTimer() {
  const box = document.getElementById("timer");
  if (!box) return;
  const t = view && view.timer;
  if (!t) { box.textContent = ""; box.className = "timer"; return; }
  const gone = Math.max(0, Math.floor((Date.now() - t.since) / 1000));
  const left = t.limit ? t.limit - gone : null;
  const shown = left === null ? gone : Math.abs(left);
  const text = `${Math.floor(shown / 60)}:${String(shown % 60).padStart(2, "0")}`;
  box.textContent = left === null ? `turn ${text}` : left >= 0 ? `turn: ${text} left` : `turn: ${text} over`;
  box.className = "timer" + (left !== null && left < 0 ? " over" : "");
}
setInterval(drawTimer, 250);

function draw(v) {
  view = v;
  document.getElementById("title").textContent = v.title || "Turnlight";
  const parts = [];
  const said = `${v.title} ${v.status}`.toLowerCase();
  // The round and the phase, where the ruleset's headline does not already say them.
  if (v.round && !said.includes("round")) parts.push(`round ${v.round}`);
  if (v.status) parts.push(v.status);
  if (v.phase && !said.includes(v.phase.toLowerCase())) parts.push(`phase: ${v.phase}`);
  if (v.winner) parts.push(`winner: ${v.winner}`);
  const status = document.getElementById("status");
  const line = parts.join(" · ");
  if (status.textContent !== line) document.body.dataset.statusAt = String(Date.now());
  status.textContent = line;
  document.getElementById("next").textContent = v.next_up ? `next up: ${v.next_up}` : "";
  drawFighters(v);
  drawDice(v);
  document.getElementById("scores").textContent = v.scores;
  drawCampaign(v.campaign);
  // Newest first: on a TV that cannot scroll, the latest events stay in sight.
  fill("log", v.log.slice().reverse().map((line) => el("li", { class: line.startsWith("board: refused") ? "refused" : "" }, line)));
  drawBoard(v);
  fitOrder();
  followActing();
  if (role === "gm") drawGm(v);
  drawTimer();
  document.body.dataset.updated = String(performance.timeOrigin + performance.now());
}

// A campaign's scores once its fight is over (host/core/campaign_stats.py), between fights.
function drawCampaign(c) {
  const box = document.getElementById("campaign-box");
  if (!box) return;
  box.hidden = !c;
  if (!c) return;
  document.getElementById("campaign-title").textContent = c.title;
  const head = el("tr", {}, ...c.headers.map((h) => el("th", {}, h)));
  fill("campaign", [head, ...c.rows.map((r) => el("tr", {}, ...r.map((x) => el("td", {}, x))))]);
}

// A patch: the view's top-level keys that changed, and of a list as long as before (the
// fighters) only the entries that changed, by their place (host/web/hub.py, patch_message).
function patched(v, message) {
  const next = Object.assign({}, v, message.view);
  for (const [key, items] of Object.entries(message.items || {})) {
    const entries = v[key].slice();
    for (const [place, entry] of Object.entries(items)) entries[Number(place)] = entry;
    next[key] = entries;
  }
  return next;
}

function say(text, ok) {
  const reply = document.getElementById("reply");
  if (!reply) return;
  reply.textContent = text;
  reply.className = "reply " + (ok ? "ok" : "refused");
}

function prefill(start) {
  const input = document.getElementById("command");
  input.value = start;
  input.focus();
  ask(start);
}

function connected() {
  return socket !== null && socket.readyState === WebSocket.OPEN;
}

// A line goes only on an open socket; else it stays where it was typed and the page
// says it was not sent (a line sent later, on its own, could act on a game moved on).
function send(line, typed = false) {
  if (connected()) {
    socket.send(JSON.stringify({ line }));
    awaiting.push(typed ? line : "");
    dropCompletions(); // offered for a game the line may change
    return true;
  }
  say(`not sent: "${line}" (not connected; it stays in the box: run it again once connected)`, false);
  const input = document.getElementById("command");
  if (input && !input.value) input.value = line;
  return false;
}

let asked = 0;
let completions = [];
let wanted = null; // the line whose completions are asked for (null: none wanted)
function ask(line) {
  dropCompletions(); // those of the line before: gone until the new ones come
  wanted = line;
  asked = setTimeout(() => {
    if (connected()) socket.send(JSON.stringify({ complete: line }));
  }, 120);
}

function dropCompletions() {
  clearTimeout(asked);
  wanted = null;
  completions = [];
  fill("completions", []);
}

function showCompletions(message) {
  const input = document.getElementById("command");
  // typed on since, or a line was run since it was asked
  if (!input || message.line !== input.value || message.line !== wanted) return;
  completions = message.items;
  fill("completions", message.items.map((item) => el("button", {
    class: "completion", type: "button", onclick: () => { input.value = item; input.focus(); ask(item); },
  }, item.slice(message.line.lastIndexOf(" ") + 1).trim() || item)));
}

// A console whose token is not this game's (a new game's server, on the same port): what
// it showed was another game's, so it shows nothing of it, only why (the connection line).
function forget() {
  view = null;
  board = null;
  document.body.classList.add("stale");
  for (const id of ["fighters", "buttons", "more-verbs", "table", "notes", "odds", "board", "dice", "dice-lines", "log", "completions"]) fill(id, []);
  for (const id of ["title", "status", "next", "scores", "reply", "timer"]) {
    const box = document.getElementById(id);
    if (box) box.textContent = id === "title" ? "Turnlight" : "";
  }
}

// The reply to a line: a line typed and refused stays in the box to be mended; one that
// ran leaves it, unless the box was typed on since.
let awaiting = []; // each line sent, in order, until its reply: the typed one's text, else ""
function replied(message) {
  say(message.text, message.ok);
  const typed = awaiting.shift();
  const input = document.getElementById("command");
  if (message.ok && input && typed && input.value.trim() === typed) input.value = "";
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const path = role === "gm" ? `/ws/gm?token=${encodeURIComponent(token)}` : "/ws";
  socket = new WebSocket(`${scheme}://${location.host}${path}`);
  const status = document.getElementById("connection");
  let notice = ""; // the server's one line on why it closes this page (too many open)
  socket.onopen = () => { status.textContent = ""; status.className = "connection"; };
  socket.onclose = () => {
    awaiting = []; // no reply comes on a closed socket
    const why = stale || notice;
    status.textContent = why ? `${why}; trying again…` : "not connected: retrying…";
    status.className = "connection lost" + (stale ? " stale" : "");
    setTimeout(connect, why ? 10000 : 1000);
  };
  socket.onmessage = (event) => {
    const message = JSON.parse(event.data);
    if (message.type === "view") { stale = ""; document.body.classList.remove("stale"); draw(message.view); }
    else if (message.type === "patch" && view) draw(patched(view, message));
    else if (message.type === "board") { board = { message, at: performance.now() }; drawLeds(); }
    else if (message.type === "notice") notice = message.text;
    else if (message.type === "stale") { stale = message.text; forget(); }
    else if (message.type === "completions") showCompletions(message);
    else if (message.type === "reply") replied(message);
    else if (message.type === "error") say(message.text, false);
  };
}

if (role === "gm") {
  const history = [];
  let back = 0; // how far up the history the line is
  const input = document.getElementById("command");
  document.getElementById("command-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const line = input.value.trim();
    if (!line) return;
    if (history[history.length - 1] !== line) history.push(line);
    back = 0;
    send(line, true);
  });
  input.addEventListener("input", () => ask(input.value));
  input.addEventListener("keydown", (event) => {
    if (event.key === "Tab" && completions.length) {
      // Tab takes the one completion, or what all of them share.
      event.preventDefault();
      let common = completions[0];
      for (const item of completions) while (!item.startsWith(common)) common = common.slice(0, -1);
      if (common.length > input.value.length) { input.value = common; ask(common); }
      return;
    }
    // Up and Down walk the lines sent before, as at play's prompt.
    if (event.key !== "ArrowUp" && event.key !== "ArrowDown") return;
    event.preventDefault();
    back = Math.max(0, Math.min(history.length, back + (event.key === "ArrowUp" ? 1 : -1)));
    input.value = back ? history[history.length - back] : "";
  });
  document.getElementById("health-mode").addEventListener("change", (event) => send(`health ${event.target.value}`));
}
connect();
