// paiju browser client: lobby, Mazhan and Ma Diao tables, settlements, replays.
// Plain JavaScript, no build step. The server is the authority: this page only shows the
// views it receives and sends the actions the view lists as legal.
"use strict";

const T = {
  zh: { welcome: "歡迎來到牌局", name: "名字", password: "密碼", login: "登入", register: "註冊",
    rooms: "房間", history: "我的牌局（重播）", ledger: "帳目", ready: "準備", tuoguan: "托管",
    leave: "離開", back: "返回", join: "入座", alone: "與機器人對局", min: "最低", players: "人", balance: "積分",
    logout: "登出", wild: "財神", wall: "牌牆", stake: "底注", fee: "台費", turn: "輪到",
    seconds: "秒", you: "你", bot: "機器人", waiting: "等待其他玩家…", over: "本局結束",
    change: "積分變化", items: "明細", net: "輸贏", value: "胡", mian: "面張", banker: "樁家",
    tricks: "墩", table: "上桌", trick: "本墩", chong: "開沖", draw: "流局", winner: "胡家",
    escape: "逃跑", step: "步", hand: "手牌", discards: "打出", melds: "副露", bonus: "花",
    reason_issue: "開戶", reason_fee: "台費", reason_hand: "結算", reason_escape: "逃跑",
    pass: "過", hu: "胡", peng: "碰", gang: "槓", chi: "吃", shazhu: "殺豬", angang: "暗槓",
    jiagang: "加槓", fa: "發", zhuo: "捉", mie: "滅", settle: "結算", seat: "座位", zhu: "注" },
  en: { welcome: "Welcome to paiju", name: "Name", password: "Password", login: "Log in",
    register: "Register", rooms: "Rooms", history: "My hands (replay)", ledger: "Ledger",
    ready: "Ready", tuoguan: "Auto-play", leave: "Leave", back: "Back", join: "Sit down", alone: "Play the bots",
    min: "min", players: "players", balance: "Points", logout: "Log out", wild: "Wild",
    wall: "Wall", stake: "Stake", fee: "Fee", turn: "Turn", seconds: "s", you: "you",
    bot: "bot", waiting: "Waiting for players…", over: "Hand over", change: "Change",
    items: "Items", net: "Net", value: "hu", mian: "Face card", banker: "Banker",
    tricks: "tricks", table: "won", trick: "Trick", chong: "Kai chong", draw: "Drawn hand",
    winner: "Winner", escape: "Escape", step: "step", hand: "Hand", discards: "Discards",
    melds: "Melds", bonus: "Bonus", reason_issue: "issue", reason_fee: "table fee",
    reason_hand: "hand", reason_escape: "escape", pass: "Pass", hu: "Win", peng: "Pung",
    gang: "Kong", chi: "Chow", shazhu: "Three wilds", angang: "Concealed kong",
    jiagang: "Added kong", fa: "Lead", zhuo: "Capture", mie: "Discard face down",
    settle: "Settlement", seat: "Seat", zhu: "zhu" },
};
let lang = localStorage.getItem("paiju-lang") || "zh";
const t = (k) => (T[lang][k] ?? k);
let token = localStorage.getItem("paiju-token");
let ws = null, me = null, seated = null, lastView = null, game = null, countdown = null;
let replay = null, lastSettlement = null;
const $ = (id) => document.getElementById(id);
const el = (tag, cls, text) => { const e = document.createElement(tag); if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text; return e; };

function applyLang() {
  document.documentElement.lang = lang === "zh" ? "zh" : "en";
  document.querySelectorAll("[data-t]").forEach((e) => { e.textContent = t(e.dataset.t); });
  $("lang").textContent = lang === "zh" ? "English" : "中文";
  if (lastView) render(lastView);
  if (lastSettlement && !$("result").hidden) showSettlement(lastSettlement);
}
$("lang").onclick = () => { lang = lang === "zh" ? "en" : "zh"; localStorage.setItem("paiju-lang", lang); applyLang(); if (me) lobby(); };

async function api(path, body) {
  const opts = { headers: { "content-type": "application/json" } };
  if (token) opts.headers.authorization = "Bearer " + token;
  if (body !== undefined) { opts.method = "POST"; opts.body = JSON.stringify(body); }
  const r = await fetch(path, opts);
  const data = await r.json();
  if (!r.ok) throw new Error((data.error && data.error.message) || r.statusText);
  return data;
}

// --- tiles and cards ---------------------------------------------------------------------
const NUM = "一二三四五六七八九";
const HONOR = ["東", "南", "西", "北", "白", "發", "中"];
const FLOWER = "梅蘭菊竹", SEASON = "春夏秋冬";
const split = (s) => (s || "").match(/\d+[a-z]/g)?.flatMap((g) => [...g.slice(0, -1)].map((d) => d + g.slice(-1))) || [];

function tile(code, opts = {}) {
  const e = el(opts.button ? "button" : "span", "tile " + code[1] + (opts.small ? " small" : ""));
  const r = +code[0], s = code[1];
  if (s === "z") { e.append(el("span", "r", HONOR[r - 1])); if (r === 7) e.classList.add("red"); if (r === 6) e.classList.add("green"); if (r === 5) e.classList.add("bonus"); }
  else if (s === "h" || s === "j") { e.classList.add("bonus"); e.append(el("span", "r", (s === "h" ? FLOWER : SEASON)[r - 1]), el("span", "s", String(r))); }
  else { e.append(el("span", "r", NUM[r - 1]), el("span", "s", { m: "萬", p: "筒", s: "索" }[s])); }
  if (opts.wild) e.classList.add("wild");
  e.title = code;
  return e;
}

const SUIT_ZH = { t: "十", m: "萬", s: "索", c: "文" };
function cardName(code) {
  const f = code[0], s = code[1];
  if (s === "t") return { w: "萬萬", q: "千萬", b: "百萬" }[f] || NUM[+f - 1] + "十";
  if (s === "c") return { 0: "空沒", h: "半文" }[f] || NUM[+f - 1] + "文";
  return NUM[+f - 1] + SUIT_ZH[s];
}
const RED = new Set(["wt", "qt", "bt", "9m", "8m", "9s", "8s", "0c", "hc"]);
function card(code, opts = {}) {
  const e = el(opts.button ? "button" : "span", "card" + (code && RED.has(code) ? " red" : ""));
  if (!code) { e.classList.add("down"); e.textContent = "■"; return e; }
  const n = cardName(code);
  e.append(el("span", "", n.slice(0, n.length - 1)), el("span", "", n.slice(-1)));
  e.title = code;
  return e;
}
const cards = (s) => (s || "").match(/..?/g) ? (s.match(/[wqbh0-9][tmsc]/g) || []) : [];

// --- lobby -------------------------------------------------------------------------------
function show(id) { for (const s of ["login", "lobby", "table", "replay"]) $(s).hidden = s !== id; }

async function lobby() {
  try { me = await api("/api/me"); } catch { me = null; }
  if (!me) { $("who").textContent = ""; show("login"); return; }
  $("who").textContent = `${me.name} · ${t("balance")} ${me.balance}`;
  const out = el("button", "", t("logout")); out.onclick = () => { token = null; localStorage.removeItem("paiju-token"); lobby(); };
  $("who").append(" ", out);
  if (me.seated) { connect(); return; }
  show("lobby");
  const { rooms } = await api("/api/rooms");
  $("rooms").replaceChildren(...rooms.map((r) => {
    const box = el("div", "room");
    box.append(el("h3", "", r.title), el("p", "", `${t("min")} ${r.min_balance} · ${r.players} ${t("players")}`));
    const b = el("button", "act", t("join")); b.dataset.room = r.name; b.disabled = me.balance < r.min_balance;
    b.onclick = () => join(r.name);
    const a = el("button", "", t("alone")); a.dataset.alone = r.name; a.disabled = b.disabled;
    a.onclick = () => join(r.name, true); box.append(b, " ", a); return box;
  }));
  const { entries } = await api("/api/ledger");
  $("ledger").replaceChildren(...entries.slice(0, 30).map((e) => {
    const tr = el("tr"); tr.append(el("td", "", e.at.replace("T", " ").slice(0, 16)), el("td", "", t("reason_" + e.reason)),
      el("td", e.amount >= 0 ? "plus" : "minus", (e.amount > 0 ? "+" : "") + e.amount), el("td", "", e.balance_after)); return tr;
  }));
  const { hands } = await api("/api/hands");
  $("hands").replaceChildren(...hands.slice(0, 20).map((h) => {
    const b = el("button", "", `#${h.hand} ${h.game === "mazhan" ? "麻將" : "馬吊"} ${h.seat} ${h.net > 0 ? "+" : ""}${h.net ?? ""}`);
    b.onclick = () => openReplay(h.hand); return b;
  }));
}

async function auth(register) {
  $("auth-error").textContent = "";
  const body = { name: $("name").value.trim(), password: $("password").value };
  try {
    if (register) await api("/api/register", body);
    token = (await api("/api/login", body)).token; localStorage.setItem("paiju-token", token);
    lobby();
  } catch (err) { $("auth-error").textContent = err.message; }
}
$("auth").onsubmit = (ev) => { ev.preventDefault(); auth(false); };
$("do-register").onclick = () => auth(true);

// --- the table ---------------------------------------------------------------------------
function connect(room, alone = false) {
  if (ws) ws.close();
  const proto = location.protocol === "https:" ? "wss" : "ws";
  ws = new WebSocket(`${proto}://${location.host}/ws?token=${encodeURIComponent(token)}`);
  ws.onopen = () => { if (room) send({ type: "join", room, alone }); };
  ws.onmessage = (ev) => onMessage(JSON.parse(ev.data));
  ws.onclose = () => { ws = null; };
  show("table"); $("result").hidden = true; $("board").replaceChildren(el("p", "", t("waiting")));
}
function join(room, alone = false) { connect(room, alone); }
function send(m) { if (ws && ws.readyState === 1) ws.send(JSON.stringify(m)); }
$("ready").onclick = () => { send({ type: "ready" }); $("ready").disabled = true; };
$("tuoguan").onchange = () => send({ type: "tuoguan", on: $("tuoguan").checked });
$("leave").onclick = () => { send({ type: "leave" }); setTimeout(lobby, 300); };

function onMessage(m) {
  if (m.type === "seated") { seated = m; game = m.room.startsWith("madiao") ? "madiao" : "mazhan"; $("ready").disabled = false; }
  else if (m.type === "table") { game = m.game; renderSeats(m); }
  else if (m.type === "hand_start") { lastSettlement = null; $("result").hidden = true; $("ready").disabled = true; $("table-head").dataset.stake = m.stake; }
  else if (m.type === "view") { lastView = m; render(m); }
  else if (m.type === "settlement") { showSettlement(m); }
  else if (m.type === "escape") { $("table-error").textContent = `${t("escape")}: ${m.seat} (${m.why}) −${m.penalty}`; }
  else if (m.type === "unseated" || m.type === "left") { seated = null; }
  else if (m.type === "error") { $("table-error").textContent = `${m.code}: ${m.message}`; }
}

function renderSeats(m) {
  const parts = Object.entries(m.seats).map(([s, x]) => `${s}: ${x ? x.name + (x.bot ? " (" + t("bot") + ")" : "") + (x.tuoguan ? " [" + t("tuoguan") + "]" : "") : "—"}`);
  $("table-head").textContent = `${m.room} #${m.table} · ${parts.join(" · ")}`;
  if (!m.live && !lastView) $("board").replaceChildren(el("p", "", t("waiting")));
  const mine = seated && m.seats[seated.seat]; if (mine) $("tuoguan").checked = mine.tuoguan;
}

function tick(seconds) {
  clearInterval(countdown);
  if (seconds == null) return;
  const end = Date.now() + seconds * 1000;
  const show = () => { const left = Math.max(0, Math.ceil((end - Date.now()) / 1000)); const c = $("clock"); if (c) c.textContent = `${left}${t("seconds")}`; };
  show(); countdown = setInterval(show, 250);
}

function render(m) {
  $("table-error").textContent = "";
  const v = m.view;
  const board = $("board"), prompt = $("prompt");
  board.replaceChildren(); prompt.replaceChildren();
  if (v.wild !== undefined) renderMazhan(v, board, prompt, m); else renderMadiao(v, board, prompt, m);
  tick(m.seconds_left);
  if (v.result) $("ready").disabled = false;
}

function actionLabel(a) {
  const [, kind, arg] = a.split(" ");
  return t(kind) + (arg ? " " + arg : "");
}

function renderMazhan(v, board, prompt, m) {
  const info = el("div", "info");
  const wild = el("span", "", `${t("wild")} `); wild.append(tile(v.wild, { small: true, wild: true }));
  info.append(wild, el("span", "", `${t("wall")} ${v.wall_left}`), el("span", "", `${t("stake")} ${m.stake} · ${t("fee")} ${m.stake}`),
    el("span", "", `${t("turn")}: ${v.acting.join(" ") || "—"} `));
  const clock = el("b"); clock.id = "clock"; info.append(clock);
  board.append(info);
  const order = ["E", "S", "W", "N"]; const i = order.indexOf(v.seat);
  for (const s of [...order.slice(i + 1), ...order.slice(0, i)]) board.append(seatBox(v, s, false));
  board.append(seatBox(v, v.seat, true));
  for (const a of v.legal) {
    if (a.split(" ")[1] === "discard") continue;
    const b = el("button", "act", actionLabel(a)); b.onclick = () => send({ type: "action", action: a, version: m.version }); prompt.append(b);
  }
  if (v.claim_tile) { prompt.prepend(el("span", "", `${v.claim_from} → `), tile(v.claim_tile, { small: true })); }
}

function seatBox(v, s, mine) {
  const box = el("div", "seat" + (mine ? " me" : "") + (v.acting.includes(s) ? " turn" : ""));
  box.append(el("h3", "", `${s}${mine ? " (" + t("you") + ")" : ""} · ${t("hand")} ${v.hand_sizes[s]}`));
  const row = el("div", "tiles");
  for (const meld of v.melds[s] || []) { const [, ts] = meld.split(" "); split(ts).forEach((c) => row.append(tile(c, { small: true }))); row.append(el("span", "", " ")); }
  split(v.bonus[s]).forEach((c) => row.append(tile(c, { small: true })));
  box.append(row);
  if (mine) {
    const hand = el("div", "tiles"); const legal = new Set(v.legal.filter((a) => a.includes(" discard ")).map((a) => a.split(" ")[2]));
    const tiles = split(v.hand); let drawnShown = false;
    tiles.forEach((c) => {
      const isDrawn = v.drawn === c && !drawnShown && c === tiles.filter((x) => x === c).slice(-1)[0];
      const b = tile(c, { button: true, wild: c === v.wild }); b.disabled = !legal.has(c);
      b.onclick = () => send({ type: "action", action: `${v.seat} discard ${c}`, version: lastView.version });
      hand.append(b);
      if (isDrawn) drawnShown = true;
    });
    box.append(hand);
  }
  const river = el("div", "tiles"); (v.discards[s] || []).forEach((d) => { const e = tile(d.tile, { small: true }); if (d.claimed) e.classList.add("claimed"); river.append(e); });
  box.append(river);
  return box;
}

function renderMadiao(v, board, prompt, m) {
  const info = el("div", "info");
  const mian = el("span", "", `${t("mian")} `); mian.append(card(v.mian));
  info.append(mian, el("span", "", `${t("banker")} ${v.banker}`), el("span", "", `${t("trick")} ${Math.min(v.trick_no + 1, 8)}/8`),
    el("span", "", `${t("stake")} ${m.stake}`), el("span", "", `${t("turn")}: ${v.acting.join(" ") || "—"} `));
  const clock = el("b"); clock.id = "clock"; info.append(clock);
  board.append(info);
  const trick = el("div", "tiles"); trick.append(el("span", "", t("trick") + ": "));
  v.trick.forEach((p) => { trick.append(el("span", "", " " + p.seat + " "), card(p.face_up || p.card ? p.card : null)); });
  board.append(trick);
  for (const s of ["E", "S", "W", "N"]) {
    const box = el("div", "seat" + (s === v.seat ? " me" : "") + (v.acting.includes(s) ? " turn" : ""));
    box.append(el("h3", "", `${s}${s === v.seat ? " (" + t("you") + ")" : ""}${s === v.banker ? " · " + t("banker") : ""} · ${v.tricks_won[s]} ${t("tricks")} · ${t("hand")} ${v.hand_sizes[s]}`));
    const row = el("div", "tiles"); row.append(el("span", "", t("table") + ": ")); cards(v.table[s]).forEach((c) => row.append(card(c))); box.append(row);
    board.append(box);
  }
  const hand = el("div", "tiles");
  cards(v.hand).forEach((c) => {
    const e = card(c, { button: true }); const acts = v.legal.filter((a) => a.endsWith(" " + c));
    e.disabled = acts.length === 0;
    e.onclick = () => { prompt.replaceChildren(...acts.map((a) => { const b = el("button", "act", actionLabel(a)); b.onclick = () => send({ type: "action", action: a, version: lastView.version }); return b; })); if (acts.length === 1) send({ type: "action", action: acts[0], version: lastView.version }); };
    hand.append(e);
  });
  board.append(hand);
}

function showSettlement(m) {
  lastSettlement = m;
  const box = $("result"); box.hidden = false; box.replaceChildren(el("h3", "", `${t("settle")} #${m.hand}`));
  const v = lastView && lastView.view; const res = v && v.result;
  const table = el("table"); const head = el("tr");
  const valueLabel = res && res.seats ? t("zhu") : t("value");
  [t("seat"), valueLabel, t("items"), t("net")].forEach((h) => head.append(el("th", "", h))); table.append(head);
  if (res && res.settlement && res.settlement.players) {
    for (const [s, p] of Object.entries(res.settlement.players)) {
      const tr = el("tr"); const items = [...p.items.map((i) => `${lang === "zh" ? i.name : i.en} ${i.points}`), ...p.tai_items.map((x) => `${lang === "zh" ? x.name : x.en} +${x.tai}台`), ...p.hand];
      tr.append(el("td", "", s + (p.role === "winner" ? " · " + t("winner") : "")), el("td", "", String(p.value)), el("td", "", items.join(" · ") || "—"),
        el("td", res.net[s] >= 0 ? "plus" : "minus", String(res.net[s]))); table.append(tr);
    }
  } else if (res && res.seats) {
    for (const [s, p] of Object.entries(res.seats)) {
      const tr = el("tr"); const items = [`${p.tricks} ${t("tricks")}`, `吊 ${p.diao}`, ...p.bonuses.map((b) => `${lang === "zh" ? b.name : b.en} ${b.zhu}`), `${t("chong")} ${p.chong}`];
      tr.append(el("td", "", s + (s === res.banker ? " · " + t("banker") : "")), el("td", "", String(p.bonus_total)), el("td", "", items.join(" · ")),
        el("td", res.net[s] >= 0 ? "plus" : "minus", String(res.net[s]))); table.append(tr);
    }
  }
  box.append(table);
  if (res && res.chong) {
    const draws = el("div", "tiles"); draws.append(el("span", "", t("chong") + ": "));
    res.chong.forEach((d) => { const c = card(d.card); c.title = `${d.drawer} → ${d.scorer || "—"} +${d.points}`;
      draws.append(c, el("span", d.points ? "plus" : "", `${d.scorer || "✕"}${d.points ? "+" + d.points : ""} `)); });
    box.append(draws);
  }
  const change = el("p", "balance-change", `${t("change")}: ${m.balance_change > 0 ? "+" : ""}${m.balance_change} · ${t("balance")} ${m.balance}`);
  change.id = "balance-change"; box.append(change);
  if (me) { me.balance = m.balance; $("who").firstChild.textContent = `${me.name} · ${t("balance")} ${me.balance}`; }
}

// --- replays -----------------------------------------------------------------------------
async function openReplay(hand) {
  replay = { hand, step: 0 }; show("replay"); await replayStep(0);
}
async function replayStep(step) {
  const r = await api(`/api/hands/${replay.hand}/replay?step=${step}`);
  replay.step = r.step; $("replay-step").max = r.steps; $("replay-step").value = r.step;
  $("replay-head").textContent = `#${replay.hand} · ${t("step")} ${r.step}/${r.steps}${r.last ? " · " + r.last : ""}`;
  const board = $("replay-board"); board.replaceChildren(); const fake = { version: -1, stake: "", seconds_left: null };
  if (r.game === "mazhan") renderMazhan(r.view, board, el("div"), fake); else renderMadiao(r.view, board, el("div"), fake);
  board.querySelectorAll("button").forEach((b) => { b.disabled = true; });
}
$("replay-prev").onclick = () => replayStep(replay.step - 1);
$("replay-next").onclick = () => replayStep(replay.step + 1);
$("replay-step").oninput = () => replayStep(+$("replay-step").value);
$("replay-close").onclick = () => lobby();

applyLang();
lobby();
