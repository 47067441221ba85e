#!/usr/bin/env python3
"""A toy rules engine behind the mergecheck/1 adapter protocol.

This file is an example for engine authors (see adapters/README.md). It is
both halves of an adapter at once: the protocol loop at the bottom, and a
very small "engine" above it that knows just enough of the rules of merged
permanents to play some of mergecheck's scenarios.

The toy is partial on purpose, and honest about it: whatever it does not
model it refuses with an error of kind "unsupported" that names the thing.
A refused scenario is not counted against an engine; a wrong trace is.

    It plays:   normal-layout cards and tokens, the merged stacks of the
                starting state, and the actions cast, cast_mutate, resolve, move
                (without replacement effects), tap and untap.
    It refuses: every other action, other layouts, face-down components,
                statuses other than tapped, copy effects, Auras attached to
                permanents, counters other than +1/+1 and -1/-1,
                commanders, linked abilities and replacement effects.

Standard library only. Run it by hand:
    echo '{"type":"hello","protocol":"mergecheck/1","harness":"me"}' | python3 toy_engine.py
"""
import copy
import json
import sys
import traceback

PROTOCOL = "mergecheck/1"
HELLO = {
    "type": "hello", "protocol": PROTOCOL,
    "engine": {"name": "toy-python", "version": "0.1"},
    "capabilities": {
        # No bare merge action; what a mutating spell may target, only
        # the rules the toy implements (0.2.0 names).
        "features": ["merged_stacks", "mutate", "illegal_targets", "protection"],
        "observers": ["creature_dies", "card_to_graveyard", "turned_face_up", "creature_enters", "mutates"],
        "partial_traces": True,  # judged by the plain invariants only
        "direct_setup": True,    # it can start from merged stacks
        "max_in_flight": 1,      # one request at a time, answered in order
    },
}
REPLACEMENTS = {"leyline_of_the_void", "wheel_of_sun_and_moon", "rest_in_peace"}
DESTINATIONS = {"graveyard": "graveyard", "hand": "hand", "exile": "exile",
                "library_top": "library", "library_bottom": "library"}


class Refusal(Exception):
    """The toy can't play a scenario; kind is the error kind of the reply."""
    kind = "internal"


class Unsupported(Refusal):
    kind = "unsupported"  # not implemented here: the case is not counted


class Invalid(Refusal):
    kind = "invalid"  # the scenario itself is wrong: an engine fault


def choices_of(action):
    """The choices an action scripts, leaving out empty ones."""
    return {k: v for k, v in (action.get("choices") or {}).items() if v not in (None, "", [])}


def mana_value(cost):
    """Mana value of "{2}{G}{G}": a number counts its value, X (Y, Z) zero,
    any other symbol one; a hybrid symbol like {2/W} counts its largest part."""
    total = 0
    for symbol in cost.replace("}", "").split("{")[1:]:
        total += max(int(part) if part.isdigit() else 0 if part in "XYZ" else 1
                     for part in symbol.split("/"))
    return total


class Game:
    """One scenario being played: the game state (the scenario's own JSON
    shapes, changed in place), and the events of the action in progress."""

    def __init__(self, scenario):
        if scenario.get("format") != "mergecheck/scenario/v1":
            raise Invalid("format is %r, want mergecheck/scenario/v1" % scenario.get("format"))
        self.name = scenario.get("name", "")
        # Requests always carry these three lists; "or []" keeps a scenario
        # file written by hand, without them, readable too.
        self.actions = scenario.get("actions") or []
        self.defs = {d["name"]: d for d in scenario.get("catalogue") or []}
        self.objects = {o["id"]: o for o in scenario.get("objects") or []}
        for i, a in enumerate(self.actions):
            if not hasattr(self, "do_%s" % a.get("type")):
                raise Unsupported("action %r (action %d) is not implemented" % (a.get("type"), i))
        self.state = copy.deepcopy(scenario["start"])
        st = self.state
        if st.get("links"):
            raise Unsupported("linked abilities (start.links) are not implemented")
        self.ts = 0  # the last timestamp handed out
        for p in st.get("battlefield", []):
            self.check_start_permanent(p)
            self.ts = max([self.ts, p.get("timestamp", 0)] + [e.get("timestamp", 0) for e in p.get("effects", [])])
        for so in st.get("stack", []):
            self.front(so["object"])
            if so.get("face_down_by"):
                raise Unsupported("face-down spells are not implemented")
        self.events = []

    def check_start_permanent(self, p):
        for status, on in p.setdefault("status", {}).items():
            if on and status != "tapped":
                raise Unsupported("status %s (of %s) is not implemented" % (status, p["id"]))
        for c in p["components"]:
            if c.get("face_down") or c.get("face", "front") != "front":
                raise Unsupported("face-down or back-face components (%s) are not implemented" % c["object"])
            if self.owner(c["object"]) != self.owner(p["components"][0]["object"]):
                raise Unsupported("merged permanent %s has components with different owners" % p["id"])
            if not self.token(c["object"]) and self.is_instant_or_sorcery(c["object"]):
                raise Invalid("%s is an instant or sorcery face up on the battlefield" % c["object"])
        if any(e.get("kind") != "pump" for e in p.get("effects", [])):
            raise Unsupported("effects other than pump (on %s) are not implemented" % p["id"])
        if p.get("attached_to"):
            raise Unsupported("Auras attached to permanents (%s) are not implemented" % p["id"])
        for kind in p.get("counters", {}):
            if kind not in ("+1/+1", "-1/-1"):
                raise Unsupported("%s counters (on %s) are not implemented: only +1/+1 and -1/-1" % (kind, p["id"]))

    # --- small lookups --------------------------------------------------
    def front(self, oid):
        """The front face of an object's card. Cards in a library or hand are
        never looked at, so the toy refuses what it can't model only once an
        object is on the battlefield or the stack, or is cast."""
        o = self.objects.get(oid)
        if o is None:
            raise Invalid("unknown object %s" % oid)
        d = self.defs.get(o.get("def"))
        if o.get("commander"):
            raise Unsupported("commanders (%s) are not implemented" % oid)
        if o.get("copy") or d is None:
            raise Unsupported("object %s has no catalogue definition the toy can use" % oid)
        if d.get("layout") != "normal":
            raise Unsupported("layout %r (%s) is not implemented: only normal cards" % (d.get("layout"), d["name"]))
        if "duplicant_imprint" in d["front"].get("abilities", []):
            raise Unsupported("linked abilities (Duplicant, %s) are not implemented" % oid)
        return d["front"]

    def owner(self, oid):
        return self.objects[oid]["owner"]

    def token(self, oid):
        return bool(self.objects[oid].get("token"))

    def is_instant_or_sorcery(self, oid):
        return bool({"instant", "sorcery"} & set(self.front(oid).get("types", [])))

    def zones(self, player):
        return next(pl for pl in self.state["players"] if pl["id"] == player).setdefault("zones", {})

    def permanent(self, pid):
        for p in self.state.get("battlefield", []):
            if p["id"] == pid and not p["status"].get("phased_out"):
                return p
        raise Invalid("%s is not on the battlefield" % pid)

    def emit(self, kind, **fields):
        self.events.append(dict(kind=kind, **fields))

    # --- characteristics ------------------------------------------------
    def derive(self, p):
        """What the engine computes about a permanent (SCENARIO.md, "derived")."""
        comps = [c["object"] for c in p["components"]]
        top = self.front(comps[0])  # CR 730.2a: the topmost component's values
        ch = {"name": top.get("name", ""), "mana_value": mana_value(top.get("mana_cost", ""))}
        for key in ("colors", "types", "subtypes", "supertypes"):
            if top.get(key):
                ch[key] = list(top[key])
        if "power" in top and "toughness" in top:
            # Layer 7c: "gets +N/+N" effects and +1/+1 and -1/-1 counters.
            bonus = p.get("counters", {}).get("+1/+1", 0) - p.get("counters", {}).get("-1/-1", 0)
            pumps = [e for e in p.get("effects", []) if e.get("kind") == "pump"]
            ch["power"] = top["power"] + bonus + sum(e.get("power", 0) for e in pumps)
            ch["toughness"] = top["toughness"] + bonus + sum(e.get("toughness", 0) for e in pumps)
        # CR 702.140e: a mutated permanent has every component's abilities.
        sources = comps if p.get("mutated") else comps[:1]
        abilities = sorted({a for c in sources for a in self.front(c).get("abilities", [])})
        if abilities:
            ch["abilities"] = abilities
        derived = {"characteristics": ch}
        if self.token(comps[0]):
            derived["token"] = True   # CR 730.2d: only if the topmost component is
        if len(comps) > 1:
            derived["merged"] = True
        return derived

    def is_creature(self, p):
        return "creature" in self.derive(p)["characteristics"].get("types", [])

    def snapshot(self):
        st = copy.deepcopy(self.state)
        for p in st.get("battlefield", []):
            p["derived"] = self.derive(p)
        for pl in st["players"]:
            zones = pl.setdefault("zones", {})
            for zone in ("hand", "command"):  # sets, kept sorted
                zones.get(zone, []).sort()
            for zone in [z for z, cards in zones.items() if not cards]:
                del zones[zone]  # empty zones are left out, like every zero value
        for key in ("battlefield", "stack"):
            if key in st and not st[key]:
                del st[key]
        return st

    # --- playing --------------------------------------------------------
    def play(self):
        trace = {"format": "mergecheck/trace/v1", "scenario": self.name,
                 "engine": "toy-python 0.1", "start": self.snapshot(), "steps": []}
        for i, a in enumerate(self.actions):
            self.events = []
            getattr(self, "do_" + a["type"])(a, i)
            step = {"action": i, "events": self.events, "state": self.snapshot()}
            if not self.events:
                del step["events"]
            trace["steps"].append(step)
        return trace

    def no_choices(self, a):
        if choices_of(a):
            raise Invalid("a %s action leaves no choice to script" % a["type"])

    def illegal_target_rule(self, pid, spell):
        """The rule that makes permanent pid an illegal target for spell,
        a mutating creature spell, or None: CR 702.140a, a non-Human
        creature with the same owner as the spell; CR 702.16b, without
        protection from red if the spell is red."""
        try:
            p = self.permanent(pid)
        except Refusal:
            return "702.140a"
        ch = self.derive(p)["characteristics"]
        if ("creature" not in ch.get("types", []) or "Human" in ch.get("subtypes", [])
                or self.owner(p["components"][0]["object"]) != self.owner(spell)):
            return "702.140a"
        if "protection_from_red" in ch.get("abilities", []) and "R" in self.front(spell).get("colors", []):
            return "702.16b"
        return None

    def do_cast(self, a, i):
        """A spell cast face up from its owner's hand, onto the stack."""
        self.no_choices(a)
        oid = a.get("object")
        if a.get("method"):
            raise Unsupported("casting face down is not implemented")
        if oid not in self.objects or self.token(oid):
            raise Invalid("%s can't be cast" % oid)
        owner = self.owner(oid)
        hand = self.zones(owner).get("hand", [])
        if oid not in hand:
            raise Invalid("%s is not in its owner's hand" % oid)
        hand.remove(oid)
        self.state.setdefault("stack", []).append({"object": oid, "controller": owner})
        self.emit("zone_change", object=oid, **{"from": "hand"}, to="stack", objects=1, cards=1)

    def do_cast_mutate(self, a, i):
        self.no_choices(a)
        oid, target = a.get("object"), a.get("target")
        if oid not in self.objects or self.token(oid) or a.get("method"):
            raise Invalid("%s can't be cast for its mutate cost" % oid)
        owner = self.owner(oid)
        hand = self.zones(owner).get("hand", [])
        if oid not in hand:
            raise Invalid("%s is not in its owner's hand" % oid)
        if "mutate" not in self.front(oid).get("abilities", []):
            raise Invalid("%s has no mutate ability" % oid)
        rule = self.illegal_target_rule(target, oid)
        if rule:
            # The rules forbid the cast: say so, and change nothing.
            self.emit("not_allowed", rule=rule, object=oid)
            return
        hand.remove(oid)
        self.state.setdefault("stack", []).append({"object": oid, "controller": owner, "target": target})
        self.emit("zone_change", object=oid, **{"from": "hand"}, to="stack", objects=1, cards=1)

    def do_resolve(self, a, i):
        stack = self.state.get("stack", [])
        if not stack:
            raise Invalid("the stack is empty")
        spell = stack[-1]
        oid, choices = spell["object"], choices_of(a)
        if spell.get("target"):
            if not self.illegal_target_rule(spell["target"], oid):
                if set(choices) != {"position"} or choices["position"] not in ("top", "bottom"):
                    raise Invalid("resolving a mutating spell needs choices.position, top or bottom, and nothing else")
                stack.pop()
                return self.merge(oid, self.permanent(spell["target"]), choices["position"])
            # CR 702.140b: the target is gone; the spell resolves as a creature spell.
            self.emit("nothing_happens", rule="702.140b", object=oid)
        self.no_choices(a)
        if self.is_instant_or_sorcery(oid):
            raise Unsupported("instant and sorcery spells are not implemented")
        stack.pop()
        self.ts += 1  # a new object, with a new timestamp (CR 613.7d)
        p = {"id": "%s@%d" % (oid, i), "controller": spell["controller"],
             "components": [{"object": oid}], "status": {}, "timestamp": self.ts}
        self.state.setdefault("battlefield", []).append(p)
        self.emit("zone_change", rule="613.7d", object=p["id"], **{"from": "stack"}, to="battlefield", objects=1, cards=1)
        if self.is_creature(p):
            self.emit("trigger", observer="creature_enters", object=p["id"])

    def merge(self, oid, p, position):
        """CR 702.140c, 730.2: the spell joins permanent p. Same object: no
        new id, no timestamp, no 'enters' trigger (730.2b-c)."""
        comp = {"object": oid}
        if position == "top":
            p["components"].insert(0, comp)
        else:
            p["components"].append(comp)
        p["mutated"] = True
        self.emit("zone_change", rule="730.2b", object=oid, **{"from": "stack"}, to="battlefield", objects=1, cards=1)
        self.emit("merged", rule="702.140c", object=p["id"], source=oid)
        # CR 702.140d: each "whenever this creature mutates" ability
        # triggers: on_mutate, or one the card declares triggered on the
        # mutates observer.
        for c in p["components"]:
            face = self.front(c["object"])
            kinds = face.get("ability_kinds", {})
            for ab in face.get("abilities", []):
                k = kinds.get(ab, {})
                if ab == "on_mutate" or (k.get("kind") == "triggered" and k.get("observer") == "mutates"):
                    self.emit("trigger", observer="mutates", object=p["id"], source=c["object"])

    def do_move(self, a, i):
        p, to = self.permanent(a.get("object")), a.get("to")
        choices = choices_of(a)
        if to not in DESTINATIONS:
            raise Invalid("can't move a permanent to %r" % to)
        if a.get("source"):
            raise Unsupported("linked abilities (move with a source) are not implemented")
        if "position" in choices or "may" in choices:
            raise Invalid("moving a permanent leaves no position or may-choice")
        if "replacement" in choices or "command_zone" in choices:
            raise Unsupported("replacement effects and commanders are not implemented")
        for q in self.state["battlefield"]:
            found = REPLACEMENTS & set(self.derive(q)["characteristics"].get("abilities", []))
            if found:
                raise Unsupported("replacement effects (%s of %s) are not implemented" % (min(found), q["id"]))
        was_creature = self.is_creature(p)  # last known information (CR 603.10a)
        comps = [c["object"] for c in p["components"]]
        cards = [c for c in comps if not self.token(c)]
        zone, order = DESTINATIONS[to], choices.get("order", [])
        if to != "hand" and len(cards) > 1:
            # CR 730.3a-b: the owner orders the cards (top first; exile earliest first).
            if sorted(order) != sorted(cards):
                raise Invalid("choices.order %r does not arrange the cards %r" % (order, cards))
            cards = list(order)
        elif order and not (len(cards) == 1 and order == cards):
            raise Invalid("choices.order %r does not fit" % (order,))
        self.state["battlefield"].remove(p)
        event = {"rule": "730.3"} if len(comps) > 1 else {}
        event.update({"object": p["id"], "from": "battlefield", "to": zone, "objects": 1})
        if cards:
            event["cards"] = len(cards)
        event["moves"] = [{"object": c, "to": zone, "owner": self.owner(c)} for c in comps]
        self.emit("zone_change", **event)
        zones = self.zones(self.owner(comps[0]))
        if to in ("graveyard", "library_top"):  # on top, the first card topmost
            zones[zone] = cards + zones.get(zone, [])
        else:  # at the bottom of the library, latest in exile, or into a hand
            zones[zone] = zones.get(zone, []) + cards
        if zone == "graveyard":
            if was_creature:
                self.emit("trigger", observer="creature_dies", object=p["id"])
            for c in comps:
                if not self.token(c):
                    self.emit("trigger", observer="card_to_graveyard", object=c)
        for c in comps:  # CR 704.5d: tokens cease to exist outside the battlefield
            if self.token(c):
                self.emit("cease_to_exist", rule="704.5d", object=c)

    def do_tap(self, a, i):
        self.set_tapped(a, True)

    def do_untap(self, a, i):
        self.set_tapped(a, False)

    def set_tapped(self, a, tapped):
        """CR 701.26: tapping a tapped permanent (or untapping an untapped
        one) does nothing, and the trace says so."""
        p = self.permanent(a.get("object"))
        self.no_choices(a)
        if bool(p["status"].get("tapped")) == tapped:
            self.emit("nothing_happens", rule="701.26a" if tapped else "701.26b", object=p["id"])
            return
        if tapped:
            p["status"]["tapped"] = True
        else:
            p["status"].pop("tapped", None)
        self.emit("status_change", rule="110.5c", object=p["id"], status=dict(p["status"]))


# --- the protocol -------------------------------------------------------
def send(message):
    sys.stdout.write(json.dumps(message, separators=(",", ":")) + "\n")
    sys.stdout.flush()


def answer(request):
    rid = request.get("id")
    try:
        return {"type": "trace", "id": rid, "trace": Game(request["scenario"]).play()}
    except Refusal as r:
        return {"type": "error", "id": rid, "error": {"kind": r.kind, "message": str(r)}}
    except Exception as e:  # a bug in the toy: say so rather than die
        traceback.print_exc(file=sys.stderr)
        return {"type": "error", "id": rid, "error": {"kind": "internal", "message": repr(e)}}


def main():
    for line in sys.stdin:  # ends when mergecheck closes our standard input
        if not line.strip():
            continue
        try:
            message = json.loads(line)
        except ValueError:
            print("toy: ignoring a line that is not JSON", file=sys.stderr)
            continue
        if message.get("type") == "hello":
            if message.get("protocol") != PROTOCOL:
                print("toy: the harness speaks %r, we speak %r" % (message.get("protocol"), PROTOCOL), file=sys.stderr)
            send(HELLO)
        elif message.get("type") == "run":
            send(answer(message))
        else:
            print("toy: ignoring a %r message" % message.get("type"), file=sys.stderr)


if __name__ == "__main__":
    main()
