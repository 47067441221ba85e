"""Shared by the bad adapters in this directory (remote/remote_test.go,
harness/exec_test.go, cmd/mergecheck/fault_test.go).

Each adapter answers the handshake correctly (unless it is the point of the
test not to) and then misbehaves in its own way on run requests. Standard
library only.
"""
import json
import sys

FEATURES = ["mutate", "merge", "meld", "face_down", "flip", "double_faced",
            "phasing", "copy", "replacement", "commander", "linked"]
OBSERVERS = ["creature_dies", "card_to_graveyard", "turned_face_up", "creature_enters", "mutates"]


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def log(text):
    print(text, file=sys.stderr, flush=True)


def serve(on_run, protocol="mergecheck/1", features=FEATURES):
    """Answer each hello with the given protocol and features, and hand each
    run request to on_run."""
    for line in sys.stdin:
        message = json.loads(line)
        if message.get("type") == "hello":
            send({"type": "hello", "protocol": protocol,
                  "engine": {"name": "bad-adapter", "version": "0"},
                  "capabilities": {"features": features, "observers": OBSERVERS,
                                   "partial_traces": False, "direct_setup": True, "max_in_flight": 1}})
        elif message.get("type") == "run":
            on_run(message)


def refuse(request):
    """A well-formed refusal: the scenario is not counted."""
    send({"type": "error", "id": request["id"],
          "error": {"kind": "unsupported", "message": "this adapter refuses everything"}})


class Reference:
    """The reference engine behind these adapters: `mergecheck serve`, run
    as a child from the binary named by $MERGECHECK_BIN, so that a bad
    adapter can answer most requests rightly and misbehave on some."""

    def __init__(self):
        import os
        import subprocess
        self.child = subprocess.Popen([os.environ["MERGECHECK_BIN"], "serve", "--max-in-flight", "1"],
                                      stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.ask({"type": "hello", "protocol": "mergecheck/1", "harness": "bad adapter"})

    def ask(self, message):
        self.child.stdin.write(json.dumps(message) + "\n")
        self.child.stdin.flush()
        return self.child.stdout.readline()
