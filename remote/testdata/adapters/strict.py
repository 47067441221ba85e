# An adapter whose hello or answers are not exactly protocol, in the way
# its one argument names: the harness must refuse each, naming what is
# wrong, never read it leniently.
import json
import sys; sys.dont_write_bytecode = True  # keep __pycache__ out of testdata
from badadapter import FEATURES, OBSERVERS, send

mode = sys.argv[1]


def hello():
    caps = {"features": FEATURES, "observers": OBSERVERS, "max_in_flight": 1}
    if mode == "hello-typo":
        caps = {"capabilites": caps}
    elif mode == "hello-feature":
        caps = {"feature": FEATURES}
    elif mode == "hello-negative":
        caps["max_in_flight"] = -7
    send({"type": "hello", "protocol": "mergecheck/1", "engine": {"name": "strict", "version": "0"}, "capabilities": caps})


def answer(request):
    refusal = '{"type":"error","id":%d,"error":{"kind":"unsupported","message":"no"}}' % request["id"]
    line = {
        "trailing": refusal + " garbage",
        "nul": refusal + "\0",
        "two-answers": refusal + refusal,
        "dup-type": '{"type":"error","id":%d,"type":"error","error":{"kind":"internal","message":"crash","kind":"unsupported"}}' % request["id"],
        "log-line": '{"type":"log","id":%d,"message":"hello from the engine"}' % request["id"],
        "wrong-id": '{"type":"error","id":%d,"error":{"kind":"unsupported","message":"no"}}' % (request["id"] + 1000),
    }[mode]
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


for raw in sys.stdin:
    message = json.loads(raw)
    if message.get("type") == "hello":
        hello()
    elif message.get("type") == "run":
        answer(message)
