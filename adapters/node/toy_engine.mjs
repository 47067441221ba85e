#!/usr/bin/env node
// A toy rules engine behind the mergecheck/1 adapter protocol, for Node.
//
// A port of the example adapter adapters/python/toy_engine.py: the same tiny
// "engine" for merged permanents, with the same capabilities, refusals and
// traces, under the engine name "toy-node". The Game class follows the
// Python one method by method, so the two read side by side. Two things
// differ: it checks the shape of what it reads first (SCENARIO below), so a
// malformed scenario gets an "invalid" answer saying where, and its traces
// leave out empty values, as the trace format asks. adapters/README.md is
// the guide to adapters, docs/PROTOCOL.md the wire format, and
// docs/SCENARIO.md the scenarios and traces.
//
//     It plays:   normal-layout cards and tokens, the merged stacks of the
//                 starting state, and the actions cast, cast_mutate, resolve, move
//                 (without replacement effects), tap and untap.
//     It refuses: every other action, other layouts, face-down components,
//                 statuses other than tapped, copy effects, Auras attached
//                 to permanents, counters other than +1/+1 and -1/-1,
//                 commanders, linked abilities and replacement effects
//                 (error kind "unsupported", naming it).
//
// Node 20 or later, standard library only, no package.json needed. Run it
// under mergecheck:
//     mergecheck run --engine 'exec:node adapters/node/toy_engine.mjs'
// or by hand:
//     echo '{"type":"hello","protocol":"mergecheck/1","harness":"me"}' | node adapters/node/toy_engine.mjs

import readline from "node:readline";

const PROTOCOL = "mergecheck/1";
const ENGINE = { name: "toy-node", version: "0.1" };
const HELLO = {
  type: "hello", protocol: PROTOCOL, engine: ENGINE,
  capabilities: {
    // No bare merge action; what a mutating spell may target, only the
    // rules the toy implements (0.2.0 names).
    features: ["merged_stacks", "mutate", "illegal_targets", "protection"],
    observers: ["creature_dies", "card_to_graveyard", "turned_face_up", "creature_enters", "mutates"],
    partial_traces: true, // judged by the plain invariants only
    direct_setup: true,   // it can start from merged stacks
    max_in_flight: 1,     // one request at a time, answered in order
  },
};
// Abilities that are replacement effects, in alphabetical order.
const REPLACEMENTS = ["leyline_of_the_void", "rest_in_peace", "wheel_of_sun_and_moon"];
// Where a move action's `to` puts the cards.
const DESTINATIONS = new Map([["graveyard", "graveyard"], ["hand", "hand"], ["exile", "exile"],
  ["library_top", "library"], ["library_bottom", "library"]]);

// The toy can't play a scenario; kind is the error kind of the reply.
class Refusal extends Error { kind = "internal"; }
class Unsupported extends Refusal { kind = "unsupported"; } // not implemented here: the case is not counted
class Invalid extends Refusal { kind = "invalid"; } // the scenario itself is wrong

// --- reading a scenario -------------------------------------------------------

// The shape of the parts of a scenario the toy reads; it ignores the rest.
// A type is "string", "boolean" or "integer"; [shape] is a list of that
// shape; an object lists the keys it may have ("*" for any key), and a key
// ending in "!" must be there.
const FACE = {
  name: "string", mana_cost: "string", colors: ["string"], types: ["string"], subtypes: ["string"],
  supertypes: ["string"], power: "integer", toughness: "integer", abilities: ["string"],
};
const PERMANENT = {
  "id!": "string", "controller!": "string",
  "components!": [{ "object!": "string", face: "string", face_down: "boolean" }],
  status: { "*": "boolean" }, mutated: "boolean", counters: { "*": "integer" },
  effects: [{ kind: "string", timestamp: "integer", power: "integer", toughness: "integer" }],
  timestamp: "integer", attached_to: "string",
};
const SCENARIO = {
  name: "string",
  catalogue: [{ "name!": "string", "layout!": "string", "front!": FACE }],
  objects: [{ "id!": "string", def: "string", "owner!": "string", token: "boolean", commander: "boolean" }],
  "start!": {
    "players!": [{ "id!": "string", zones: { "*": ["string"] } }],
    battlefield: [PERMANENT],
    stack: [{ "object!": "string", "controller!": "string", target: "string", face_down_by: "string" }],
    links: [{}],
  },
  actions: [{ "type!": "string", object: "string", target: "string", to: "string", source: "string",
    method: "string", choices: { position: "string", order: ["string"] } }],
};

// Checks that value has the shape, or says what is wrong and where.
function check(value, shape, where) {
  if (shape === "integer") {
    if (!Number.isSafeInteger(value)) throw new Invalid(`${where} should be a whole number`);
  } else if (typeof shape === "string") {
    if (typeof value !== shape) throw new Invalid(`${where} should be a ${shape}`);
  } else if (Array.isArray(shape)) {
    if (!Array.isArray(value)) throw new Invalid(`${where} should be a list`);
    value.forEach((item, i) => check(item, shape[0], `${where}[${i}]`));
  } else if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new Invalid(`${where} should be an object`);
  } else {
    for (const [key, inner] of Object.entries(shape)) {
      const name = key.replace(/!$/, "");
      if (key === "*") for (const [k, v] of Object.entries(value)) check(v, inner, `${where}.${k}`);
      else if (Object.hasOwn(value, name)) check(value[name], inner, `${where}.${name}`);
      else if (key !== name) throw new Invalid(`${where} has no ${name}`);
    }
  }
}

// The choices an action scripts, leaving out empty ones.
function choicesOf(action) {
  const empty = (v) => v === null || v === "" || (Array.isArray(v) && v.length === 0);
  return new Map(Object.entries(action.choices ?? {}).filter(([, v]) => !empty(v)));
}

// Mana value of "{2}{G}{G}" (CR 202.3): a number counts its value, X (Y, Z)
// zero, a coloured, colourless, Phyrexian or snow symbol one; a hybrid
// symbol like {2/W} counts its largest part.
function manaValue(cost, card) {
  if (!/^(\{[^{}]+\})*$/.test(cost)) throw new Invalid(`the mana cost of ${card}, ${cost}, is not a list of {symbols}`);
  let total = 0;
  for (const [, symbol] of cost.matchAll(/\{([^{}]+)\}/g)) {
    total += Math.max(...symbol.split("/").map((part) => {
      if (/^[0-9]+$/.test(part)) return Number(part);
      if (/^[XYZ]$/.test(part)) return 0;
      if (/^[WUBRGCPS]$/.test(part)) return 1;
      throw new Invalid(`the mana cost of ${card}, ${cost}, has an unknown symbol {${symbol}}`);
    }));
  }
  return total;
}

// Leaves out of obj the keys whose values are empty lists or objects: a
// trace omits zero values.
function dropEmpty(obj, keys = Object.keys(obj)) {
  for (const key of keys) {
    if (obj[key] && Object.keys(obj[key]).length === 0) delete obj[key];
  }
}

// --- the engine ---------------------------------------------------------------

// One scenario being played: the game state (the scenario's own JSON shapes,
// changed in place), and the events of the action in progress.
class Game {
  constructor(scenario) {
    const format = scenario?.format;
    if (format !== "mergecheck/scenario/v1") throw new Invalid(`format is ${format}, want mergecheck/scenario/v1`);
    check(scenario, SCENARIO, "scenario");
    this.name = scenario.name ?? "";
    // Requests always carry these three lists; reading a missing one as
    // empty keeps a scenario file written by hand, without them, readable.
    this.actions = scenario.actions ?? [];
    this.defs = new Map((scenario.catalogue ?? []).map((d) => [d.name, d]));
    this.objects = new Map((scenario.objects ?? []).map((o) => [o.id, o]));
    for (const [i, a] of this.actions.entries()) {
      if (!ACTIONS.has(a.type)) throw new Unsupported(`action '${a.type}' (action ${i}) is not implemented`);
    }
    const st = (this.state = structuredClone(scenario.start));
    if (st.links?.length) throw new Unsupported("linked abilities (start.links) are not implemented");
    // Absent lists are empty: fill them in, and leave them out of snapshots.
    st.battlefield ??= [];
    st.stack ??= [];
    for (const pl of st.players) pl.zones ??= {};
    this.ts = 0; // the last timestamp handed out
    for (const p of st.battlefield) {
      this.checkStartPermanent(p);
      this.ts = Math.max(this.ts, p.timestamp ?? 0, ...(p.effects ?? []).map((e) => e.timestamp ?? 0));
    }
    for (const so of st.stack) {
      this.front(so.object);
      if (so.face_down_by) throw new Unsupported("face-down spells are not implemented");
    }
    this.events = [];
  }

  checkStartPermanent(p) {
    p.status ??= {};
    for (const [status, on] of Object.entries(p.status)) {
      if (on && status !== "tapped") throw new Unsupported(`status ${status} (of ${p.id}) is not implemented`);
    }
    if (p.components.length === 0) throw new Invalid(`permanent ${p.id} has no components`);
    for (const c of p.components) {
      if (c.face_down || (c.face ?? "front") !== "front") {
        throw new Unsupported(`face-down or back-face components (${c.object}) are not implemented`);
      }
      if (this.owner(c.object) !== this.owner(p.components[0].object)) {
        throw new Unsupported(`merged permanent ${p.id} has components with different owners`);
      }
      if (!this.token(c.object) && this.isInstantOrSorcery(c.object)) {
        throw new Invalid(`${c.object} is an instant or sorcery face up on the battlefield`);
      }
    }
    if ((p.effects ?? []).some((e) => e.kind !== "pump")) {
      throw new Unsupported(`effects other than pump (on ${p.id}) are not implemented`);
    }
    if (p.attached_to) throw new Unsupported(`Auras attached to permanents (${p.id}) are not implemented`);
    for (const kind of Object.keys(p.counters ?? {})) {
      if (kind !== "+1/+1" && kind !== "-1/-1") {
        throw new Unsupported(`${kind} counters (on ${p.id}) are not implemented: only +1/+1 and -1/-1`);
      }
    }
  }

  // --- small lookups ---

  object(oid) {
    const o = this.objects.get(oid);
    if (!o) throw new Invalid(`unknown object ${oid}`);
    return o;
  }

  // The front face of an object's card. Cards in a library or hand are never
  // looked at, so the toy refuses what it can't model only once an object
  // is on the battlefield or the stack, or is cast.
  front(oid) {
    const o = this.object(oid), d = this.defs.get(o.def);
    if (o.commander) throw new Unsupported(`commanders (${oid}) are not implemented`);
    if (o.copy || !d) throw new Unsupported(`object ${oid} has no catalogue definition the toy can use`);
    if (d.layout !== "normal") {
      throw new Unsupported(`layout '${d.layout}' (${d.name}) is not implemented: only normal cards`);
    }
    if (d.front.abilities?.includes("duplicant_imprint")) {
      throw new Unsupported(`linked abilities (Duplicant, ${oid}) are not implemented`);
    }
    return d.front;
  }

  owner(oid) { return this.object(oid).owner; }
  token(oid) { return Boolean(this.object(oid).token); }

  isInstantOrSorcery(oid) {
    const types = this.front(oid).types ?? [];
    return types.includes("instant") || types.includes("sorcery");
  }

  zones(player) {
    const pl = this.state.players.find((pl) => pl.id === player);
    if (!pl) throw new Invalid(`there is no player ${player}`);
    return pl.zones;
  }

  // The permanent with this id, unless it is gone (or phased out).
  findPermanent(pid) {
    return this.state.battlefield.find((p) => p.id === pid && !p.status.phased_out);
  }

  permanent(pid) {
    const p = this.findPermanent(pid);
    if (!p) throw new Invalid(`${pid} is not on the battlefield`);
    return p;
  }

  emit(kind, fields) { this.events.push({ kind, ...fields }); }

  // --- characteristics ---

  // What the engine computes about a permanent (SCENARIO.md, "derived").
  derive(p) {
    const comps = p.components.map((c) => c.object);
    const top = this.front(comps[0]); // CR 730.2a: the topmost component's values
    const ch = { name: top.name, mana_value: manaValue(top.mana_cost ?? "", top.name) };
    for (const key of ["colors", "types", "subtypes", "supertypes"]) {
      if (top[key]?.length) ch[key] = [...top[key]];
    }
    if ("power" in top && "toughness" in top) {
      // Layer 7c: "gets +N/+N" effects and +1/+1 and -1/-1 counters.
      const counters = p.counters ?? {};
      const bonus = (counters["+1/+1"] ?? 0) - (counters["-1/-1"] ?? 0);
      const pumps = (p.effects ?? []).filter((e) => e.kind === "pump");
      ch.power = top.power + bonus + pumps.reduce((sum, e) => sum + (e.power ?? 0), 0);
      ch.toughness = top.toughness + bonus + pumps.reduce((sum, e) => sum + (e.toughness ?? 0), 0);
    }
    // CR 702.140e: a mutated permanent has every component's abilities.
    const sources = p.mutated ? comps : comps.slice(0, 1);
    const abilities = [...new Set(sources.flatMap((c) => this.front(c).abilities ?? []))].sort();
    if (abilities.length) ch.abilities = abilities;
    const derived = { characteristics: ch };
    if (this.token(comps[0])) derived.token = true; // CR 730.2d: only if the topmost component is
    if (comps.length > 1) derived.merged = true;
    return derived;
  }

  isCreature(p) { return Boolean(this.derive(p).characteristics.types?.includes("creature")); }

  // The state as a trace shows it: with derived values, without empty ones.
  snapshot() {
    const st = structuredClone(this.state);
    for (const p of st.battlefield) {
      p.derived = this.derive(p);
      dropEmpty(p, ["status"]);
    }
    for (const pl of st.players) {
      pl.zones.hand?.sort(); // hand and command zone are sets, kept sorted
      pl.zones.command?.sort();
      dropEmpty(pl.zones);
      dropEmpty(pl, ["zones"]);
    }
    dropEmpty(st, ["battlefield", "stack", "links"]);
    return st;
  }

  // --- playing ---

  play() {
    const engine = `${ENGINE.name} ${ENGINE.version}`;
    const trace = { format: "mergecheck/trace/v1", scenario: this.name, engine, start: this.snapshot(), steps: [] };
    for (const [i, a] of this.actions.entries()) {
      this.events = [];
      ACTIONS.get(a.type).call(this, a, i);
      const step = { action: i, events: this.events, state: this.snapshot() };
      if (this.events.length === 0) delete step.events;
      trace.steps.push(step);
    }
    return trace;
  }

  noChoices(a) {
    if (choicesOf(a).size) throw new Invalid(`a ${a.type} action leaves no choice to script`);
  }

  // The rule that makes permanent pid an illegal target for spell, a
  // mutating creature spell, or null: CR 702.140a, a non-Human creature
  // with the same owner as the spell; CR 702.16b, without protection from
  // red if the spell is red.
  illegalTargetRule(pid, spell) {
    const p = this.findPermanent(pid);
    if (!p) return "702.140a";
    const ch = this.derive(p).characteristics;
    if (!ch.types?.includes("creature") || ch.subtypes?.includes("Human") ||
      this.owner(p.components[0].object) !== this.owner(spell)) return "702.140a";
    if (ch.abilities?.includes("protection_from_red") && this.front(spell).colors?.includes("R")) return "702.16b";
    return null;
  }

  cast(a, i) {
    this.noChoices(a);
    const oid = a.object;
    if (a.method) throw new Unsupported("casting face down is not implemented");
    if (!this.objects.has(oid) || this.token(oid)) throw new Invalid(`${oid} can't be cast`);
    const owner = this.owner(oid);
    const hand = this.zones(owner).hand ?? [];
    if (!hand.includes(oid)) throw new Invalid(`${oid} is not in its owner's hand`);
    hand.splice(hand.indexOf(oid), 1);
    this.state.stack.push({ object: oid, controller: owner });
    this.emit("zone_change", { object: oid, from: "hand", to: "stack", objects: 1, cards: 1 });
  }

  castMutate(a, i) {
    this.noChoices(a);
    const oid = a.object, target = a.target;
    if (!this.objects.has(oid) || this.token(oid) || a.method) {
      throw new Invalid(`${oid} can't be cast for its mutate cost`);
    }
    const owner = this.owner(oid);
    const hand = this.zones(owner).hand ?? [];
    if (!hand.includes(oid)) throw new Invalid(`${oid} is not in its owner's hand`);
    if (!this.front(oid).abilities?.includes("mutate")) throw new Invalid(`${oid} has no mutate ability`);
    const rule = this.illegalTargetRule(target, oid);
    if (rule) {
      // The rules forbid the cast: say so, and change nothing.
      this.emit("not_allowed", { rule, object: oid });
      return;
    }
    hand.splice(hand.indexOf(oid), 1);
    this.state.stack.push({ object: oid, controller: owner, target });
    this.emit("zone_change", { object: oid, from: "hand", to: "stack", objects: 1, cards: 1 });
  }

  resolve(a, i) {
    const stack = this.state.stack;
    if (stack.length === 0) throw new Invalid("the stack is empty");
    const spell = stack.at(-1), oid = spell.object, choices = choicesOf(a);
    if (spell.target) {
      if (!this.illegalTargetRule(spell.target, oid)) {
        const position = choices.get("position");
        if (choices.size !== 1 || (position !== "top" && position !== "bottom")) {
          throw new Invalid("resolving a mutating spell needs choices.position, top or bottom, and nothing else");
        }
        stack.pop();
        this.merge(oid, this.permanent(spell.target), position);
        return;
      }
      // CR 702.140b: the target is gone; the spell resolves as a creature spell.
      this.emit("nothing_happens", { rule: "702.140b", object: oid });
    }
    this.noChoices(a);
    if (this.isInstantOrSorcery(oid)) throw new Unsupported("instant and sorcery spells are not implemented");
    stack.pop();
    this.ts += 1; // a new object, with a new timestamp (CR 613.7d)
    const p = { id: `${oid}@${i}`, controller: spell.controller, components: [{ object: oid }], status: {},
      timestamp: this.ts };
    this.state.battlefield.push(p);
    this.emit("zone_change", { rule: "613.7d", object: p.id, from: "stack", to: "battlefield", objects: 1, cards: 1 });
    if (this.isCreature(p)) this.emit("trigger", { observer: "creature_enters", object: p.id });
  }

  // CR 702.140c, 730.2: the spell joins permanent p. Same object: no new id,
  // no new timestamp, no "enters" trigger (730.2b-c).
  merge(oid, p, position) {
    const comp = { object: oid };
    if (position === "top") p.components.unshift(comp);
    else p.components.push(comp);
    p.mutated = true;
    this.emit("zone_change", { rule: "730.2b", object: oid, from: "stack", to: "battlefield", objects: 1, cards: 1 });
    this.emit("merged", { rule: "702.140c", object: p.id, source: oid });
    // CR 702.140d: each "whenever this creature mutates" ability
    // triggers: on_mutate, or one the card declares triggered on the
    // mutates observer.
    for (const c of p.components) {
      const face = this.front(c.object);
      const kinds = face.ability_kinds ?? {};
      for (const ab of face.abilities ?? []) {
        const k = kinds[ab] ?? {};
        if (ab === "on_mutate" || (k.kind === "triggered" && k.observer === "mutates")) {
          this.emit("trigger", { observer: "mutates", object: p.id, source: c.object });
        }
      }
    }
  }

  move(a, i) {
    const p = this.permanent(a.object), to = a.to;
    const choices = choicesOf(a);
    if (!DESTINATIONS.has(to)) throw new Invalid(`can't move a permanent to '${to}'`);
    if (a.source) throw new Unsupported("linked abilities (move with a source) are not implemented");
    if (choices.has("position") || choices.has("may")) {
      throw new Invalid("moving a permanent leaves no position or may-choice");
    }
    if (choices.has("replacement") || choices.has("command_zone")) {
      throw new Unsupported("replacement effects and commanders are not implemented");
    }
    for (const q of this.state.battlefield) {
      const abilities = this.derive(q).characteristics.abilities ?? [];
      const found = REPLACEMENTS.find((r) => abilities.includes(r)); // the first alphabetically
      if (found) throw new Unsupported(`replacement effects (${found} of ${q.id}) are not implemented`);
    }
    const wasCreature = this.isCreature(p); // last known information (CR 603.10a)
    const comps = p.components.map((c) => c.object);
    let cards = comps.filter((c) => !this.token(c));
    const zone = DESTINATIONS.get(to), order = choices.get("order") ?? [];
    if (to !== "hand" && cards.length > 1) {
      // CR 730.3a-b: the owner orders the cards (top first; exile earliest first).
      if (JSON.stringify([...order].sort()) !== JSON.stringify([...cards].sort())) {
        throw new Invalid(`choices.order ${JSON.stringify(order)} does not arrange the cards ${JSON.stringify(cards)}`);
      }
      cards = [...order];
    } else if (order.length && !(cards.length === 1 && order.length === 1 && order[0] === cards[0])) {
      throw new Invalid(`choices.order ${JSON.stringify(order)} does not fit`);
    }
    this.state.battlefield.splice(this.state.battlefield.indexOf(p), 1);
    this.emit("zone_change", {
      rule: comps.length > 1 ? "730.3" : undefined,
      object: p.id, from: "battlefield", to: zone, objects: 1, cards: cards.length || undefined,
      moves: comps.map((c) => ({ object: c, to: zone, owner: this.owner(c) })),
    });
    // On top of a graveyard or library the first card goes topmost; at the
    // bottom of a library, in exile (the latest) or into a hand, last.
    const zones = this.zones(this.owner(comps[0])), before = zones[zone] ?? [];
    zones[zone] = to === "graveyard" || to === "library_top" ? [...cards, ...before] : [...before, ...cards];
    if (zone === "graveyard") {
      if (wasCreature) this.emit("trigger", { observer: "creature_dies", object: p.id });
      for (const c of comps) {
        if (!this.token(c)) this.emit("trigger", { observer: "card_to_graveyard", object: c });
      }
    }
    for (const c of comps) { // CR 704.5d: tokens cease to exist outside the battlefield
      if (this.token(c)) this.emit("cease_to_exist", { rule: "704.5d", object: c });
    }
  }

  tap(a, i) { this.setTapped(a, true); }
  untap(a, i) { this.setTapped(a, false); }

  // CR 701.26: tapping a tapped permanent (or untapping an untapped one)
  // does nothing, and the trace says so.
  setTapped(a, tapped) {
    const p = this.permanent(a.object);
    this.noChoices(a);
    if (Boolean(p.status.tapped) === tapped) {
      this.emit("nothing_happens", { rule: tapped ? "701.26a" : "701.26b", object: p.id });
      return;
    }
    if (tapped) p.status.tapped = true;
    else delete p.status.tapped;
    this.emit("status_change", { rule: "110.5c", object: p.id, status: { ...p.status } });
  }
}

// The actions the toy plays, by type (the Python toy's do_<type> methods).
const ACTIONS = new Map([
  ["cast", Game.prototype.cast], ["cast_mutate", Game.prototype.castMutate], ["resolve", Game.prototype.resolve],
  ["move", Game.prototype.move], ["tap", Game.prototype.tap], ["untap", Game.prototype.untap],
]);

// --- the protocol -------------------------------------------------------------

const send = (message) => process.stdout.write(JSON.stringify(message) + "\n");
const log = (text) => process.stderr.write(text + "\n");

function answer(request) {
  const id = request.id ?? null;
  try {
    return { type: "trace", id, trace: new Game(request.scenario).play() };
  } catch (e) {
    if (e instanceof Refusal) return { type: "error", id, error: { kind: e.kind, message: e.message } };
    // A bug in the toy: say so rather than die.
    log(e?.stack ?? String(e));
    return { type: "error", id, error: { kind: "internal", message: String(e) } };
  }
}

// One message a line, until mergecheck closes our standard input.
for await (const line of readline.createInterface({ input: process.stdin, crlfDelay: Infinity })) {
  if (line.trim() === "") continue;
  let message;
  try {
    message = JSON.parse(line);
  } catch {
    // not JSON: ignored just below
  }
  if (message === null || typeof message !== "object" || Array.isArray(message)) {
    log("toy: ignoring a line that is not a JSON object");
  } else if (message.type === "hello") {
    if (message.protocol !== PROTOCOL) {
      log(`toy: the harness speaks ${JSON.stringify(message.protocol)}, we speak ${PROTOCOL}`);
    }
    send(HELLO);
  } else if (message.type === "run") {
    send(answer(message));
  } else {
    log(`toy: ignoring a ${JSON.stringify(message.type)} message`);
  }
}
