# Answers as the reference does, except that it plays no merge: a scenario
# with a merge or a mutating spell's resolution gets a "diverged" answer
# naming the first such action, with the trace of the steps before it.
import sys; sys.dont_write_bytecode = True  # keep __pycache__ out of testdata
import json
from badadapter import Reference, send, serve

engine = Reference()


def answer(request):
    actions = request["scenario"]["actions"]
    merging = [i for i, a in enumerate(actions) if a["type"] in ("merge", "cast_mutate")]
    if not merging:
        sys.stdout.write(engine.ask(request))
        sys.stdout.flush()
        return
    k = merging[0]
    if actions[k]["type"] == "cast_mutate":
        k += 1  # it casts the spell, and can't resolve it
        while k < len(actions) and actions[k]["type"] != "resolve":
            k += 1
        if k == len(actions):
            sys.stdout.write(engine.ask(request))
            sys.stdout.flush()
            return
    before = dict(request["scenario"], actions=actions[:k])
    trace = json.loads(engine.ask({"type": "run", "id": request["id"], "scenario": before}))["trace"]
    send({"type": "error", "id": request["id"],
          "error": {"kind": "diverged", "action": k, "message": "merging is not implemented in this engine's game: it has no %s" % actions[k]["type"], "trace": trace}})


serve(answer)
