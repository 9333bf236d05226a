// Turnlight's pages: the players' view (/) and the game master's console (/gm). The server
// sends whole views as JSON over a WebSocket; this draws them. Nothing ruleset-specific
// lives here: names, health, statuses and the table come from the view data.
"use strict";
const role = document.body.dataset.role;
const token = new URLSearchParams(location.search).get("token") || "";
let socket = null;
let view = null;

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
  box.replaceChildren(...nodes);
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

function drawFighters(v) {
  fill("fighters", v.fighters.map((f) => {
    const classes = ["fighter"];
    if (f.current) classes.push("current");
    if (f.out) classes.push("out");
    if (f.hidden) classes.push("hidden");
    const head = el("div", { class: "fighter-head" },
      el("span", { class: "name" }, f.name),
      el("span", { class: "team" }, f.team));
    const item = el("li", { class: classes.join(" "), "data-name": f.name }, head,
      healthNode(f, v.health_name));
    if (f.statuses.length) item.append(el("div", { class: "statuses" }, ...f.statuses.map((s) => el("span", { class: "chip" }, s))));
    if (f.cooldowns.length) item.append(el("div", { class: "cooldowns" }, ...f.cooldowns.map((s) => el("span", { class: "chip cd" }, s))));
    if (role === "gm") {
      const verb = f.hidden ? "reveal" : "hide";
      item.append(el("button", { class: "small", "data-line": `${verb} "${f.name}"`, onclick: () => send(`${verb} "${f.name}"`) }, verb));
    }
    return item;
  }));
}

function drawDice(v) {
  const d = v.dice;
  fill("dice", d.faces.map((f) => el("span", {
    class: "die " + (f.success === true ? "success" : f.success === false ? "failure" : "plain"),
  }, f.face)));
  if (d.value !== undefined) document.getElementById("dice").append(el("span", { class: "dice-value" }, `= ${d.value}`));
  if (d.successes !== null && d.faces.some((f) => f.success !== null)) {
    document.getElementById("dice").append(el("span", { class: "dice-value" }, `${d.successes} success${d.successes === 1 ? "" : "es"}`));
  }
  fill("dice-lines", d.lines.map((line) => el("li", {}, line)));
}

// An LED's colour as a screen shows it: the board's dim levels brightened (a square root),
// so dim, half and full stay apart and every lit key is seen.
function lit(colour) {
  const channels = [1, 3, 5].map((i) => parseInt(colour.slice(i, i + 2), 16));
  const shown = channels.map((c) => Math.round(255 * Math.sqrt(c / 255)));
  return `rgb(${shown.join(",")})`;
}

function drawBoard(v) {
  const b = v.board;
  if (b.pixels) {
    const grid = el("div", { class: "leds" });
    grid.style.gridTemplateColumns = `repeat(${b.pixels[0].length}, 1fr)`;
    for (const row of b.pixels) for (const colour of row) {
      const led = el("span", { class: "led" });
      if (colour !== "#000000") led.style.background = lit(colour);
      grid.append(led);
    }
    fill("board", [grid]);
  } else if (b.text !== undefined) {
    fill("board", [el("pre", { class: "grid-text" }, b.text)]);
  } else {
    fill("board", [el("p", { class: "note" }, b.note || "")]);
  }
}

function drawGm(v) {
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
  const buttons = [];
  for (const line of c.next_turn) buttons.push(el("button", { "data-line": line, onclick: () => send(line) }, line));
  for (const line of ["undo", "redo"]) buttons.push(el("button", { "data-line": line, onclick: () => send(line) }, line));
  for (const verb of [...c.verbs, ...c.session_verbs]) {
    if (c.next_turn.includes(verb) || verb === "undo" || verb === "redo") continue;
    const start = (c.prefill && c.prefill[verb]) || verb + " ";
    buttons.push(el("button", { class: "verb", "data-verb": verb, onclick: () => prefill(start) }, verb + "…"));
  }
  fill("buttons", buttons);
  const mode = document.getElementById("health-mode");
  if (document.activeElement !== mode) mode.value = v.settings.health;
}

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
  drawFighters(v);
  drawDice(v);
  document.getElementById("scores").textContent = v.scores;
  // Newest first: on a TV that cannot scroll, the latest events stay in sight.
  fill("log", v.log.slice().reverse().map((line) => el("li", { class: line.startsWith("board: refused") ? "refused" : "" }, line)));
  drawBoard(v);
  if (role === "gm") drawGm(v);
  document.body.dataset.updated = String(performance.timeOrigin + performance.now());
}

function prefill(start) {
  const input = document.getElementById("command");
  input.value = start;
  input.focus();
}

function send(line) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ line }));
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const path = role === "gm" ? `/ws/gm?token=${encodeURIComponent(token)}` : "/ws";
  socket = new WebSocket(`${scheme}://${location.host}${path}`);
  const status = document.getElementById("connection");
  let notice = ""; // the server's one line on why it closes this page (too many open)
  socket.onopen = () => { status.textContent = ""; status.className = "connection"; };
  socket.onclose = () => {
    status.textContent = notice ? `${notice}; retrying…` : "not connected: retrying…";
    status.className = "connection lost";
    setTimeout(connect, notice ? 10000 : 1000);
  };
  socket.onmessage = (event) => {
    const message = JSON.parse(event.data);
    if (message.type === "view") draw(message.view);
    else if (message.type === "notice") notice = message.text;
    else if (message.type === "reply" || message.type === "error") {
      const reply = document.getElementById("reply");
      if (reply) {
        reply.textContent = message.text;
        reply.className = "reply " + (message.ok ? "ok" : "refused");
      }
    }
  };
}

if (role === "gm") {
  const history = [];
  let back = 0; // how far up the history the line is
  const input = document.getElementById("command");
  document.getElementById("command-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const line = input.value.trim();
    if (line) {
      send(line);
      if (history[history.length - 1] !== line) history.push(line);
    }
    back = 0;
    input.value = "";
  });
  input.addEventListener("keydown", (event) => {
    // Up and Down walk the lines sent before, as at play's prompt.
    if (event.key !== "ArrowUp" && event.key !== "ArrowDown") return;
    event.preventDefault();
    back = Math.max(0, Math.min(history.length, back + (event.key === "ArrowUp" ? 1 : -1)));
    input.value = back ? history[history.length - back] : "";
  });
  document.getElementById("health-mode").addEventListener("change", (event) => send(`health ${event.target.value}`));
}
connect();
