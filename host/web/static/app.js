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

let opened = ""; // the fighter whose actions the console shows

function drawFighters(v) {
  const nextUp = v.next_up || "";
  fill("fighters", v.fighters.map((f) => {
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
        opened = opened === f.name ? "" : f.name;
        drawFighters(view);
      });
      if (opened === f.name) item.append(fighterActions(v, f));
    }
    return item;
  }));
}

// The console's actions on one fighter: its verbs (each starts the line), the acting
// fighter's moves, and hiding it from the players' page.
function fighterActions(v, f) {
  const mine = ((v.commands && v.commands.fighters) || {})[f.name] || { word: "", verbs: [], moves: [] };
  const box = el("div", { class: "actions" });
  const verbs = mine.verbs.map((verb) => el("button", {
    class: "verb", "data-verb": verb, onclick: () => prefill(`${verb} ${mine.word} `),
  }, verb));
  const hide = f.hidden ? "reveal" : "hide";
  verbs.push(el("button", { class: "hide", "data-line": `${hide} "${f.name}"`, onclick: () => send(`${hide} "${f.name}"`) }, hide));
  box.append(el("div", { class: "row" }, ...verbs));
  for (const group of mine.moves) {
    box.append(el("div", { class: "row moves" }, el("span", { class: "label" }, group.verb),
      ...group.moves.map((move) => el("button", {
        class: "move", "data-move": move, onclick: () => prefill(`${group.verb} ${mine.word} ${move} `),
      }, move.replace(/^"|"$/g, "")))));
  }
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
  // Newest first: on a TV that cannot scroll, the latest events stay in sight.
  fill("log", v.log.slice().reverse().map((line) => el("li", { class: line.startsWith("board: refused") ? "refused" : "" }, line)));
  drawBoard(v);
  if (role === "gm") drawGm(v);
  drawTimer();
  document.body.dataset.updated = String(performance.timeOrigin + performance.now());
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
function send(line) {
  if (connected()) {
    socket.send(JSON.stringify({ line }));
    return true;
  }
  say(`not sent: "${line}" (not connected; it stays in the box: run it again once connected)`, false);
  const input = document.getElementById("command");
  if (input && !input.value) input.value = line;
  return false;
}

let asked = 0;
let completions = [];
function ask(line) {
  completions = []; // those of the line before: gone until the new ones come
  fill("completions", []);
  clearTimeout(asked);
  asked = setTimeout(() => {
    if (connected()) socket.send(JSON.stringify({ complete: line }));
  }, 120);
}

function showCompletions(message) {
  const input = document.getElementById("command");
  if (!input || message.line !== input.value) return; // typed on since
  completions = message.items;
  fill("completions", message.items.map((item) => el("button", {
    class: "completion", type: "button", onclick: () => { input.value = item; input.focus(); ask(item); },
  }, item.slice(message.line.lastIndexOf(" ") + 1).trim() || item)));
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const path = role === "gm" ? `/ws/gm?token=${encodeURIComponent(token)}` : "/ws";
  socket = new WebSocket(`${scheme}://${location.host}${path}`);
  const status = document.getElementById("connection");
  let notice = ""; // the server's one line on why it closes this page (too many open)
  socket.onopen = () => { status.textContent = ""; status.className = "connection"; };
  socket.onclose = () => {
    const why = stale || notice;
    status.textContent = why ? `${why}; trying again…` : "not connected: retrying…";
    status.className = "connection lost" + (stale ? " stale" : "");
    setTimeout(connect, why ? 10000 : 1000);
  };
  socket.onmessage = (event) => {
    const message = JSON.parse(event.data);
    if (message.type === "view") { stale = ""; draw(message.view); }
    else if (message.type === "patch" && view) draw(Object.assign({}, view, message.view));
    else if (message.type === "board") { board = { message, at: performance.now() }; drawLeds(); }
    else if (message.type === "notice") notice = message.text;
    else if (message.type === "stale") stale = message.text;
    else if (message.type === "completions") showCompletions(message);
    else if (message.type === "reply" || message.type === "error") say(message.text, message.ok);
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
    if (send(line)) { input.value = ""; fill("completions", []); }
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
