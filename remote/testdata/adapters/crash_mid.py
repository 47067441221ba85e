# Answers as the reference does, but exits on every fifth request it gets:
# a crash that does not recur when the case is played again.
import sys; sys.dont_write_bytecode = True  # keep __pycache__ out of testdata
from badadapter import Reference, log, serve

engine = Reference()
seen = 0


def answer(request):
    global seen
    seen += 1
    if seen % 5 == 0:
        log("bad adapter: crashing on request %d" % request["id"])
        sys.exit(3)
    sys.stdout.write(engine.ask(request))
    sys.stdout.flush()


serve(answer)
