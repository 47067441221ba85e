# Answers a run request with a line that is not JSON.
import sys; sys.dont_write_bytecode = True  # keep __pycache__ out of testdata
from badadapter import log, serve


def garbage(request):
    log("bad adapter: answering request %d with garbage" % request["id"])
    sys.stdout.write("this is not JSON {\n")
    sys.stdout.flush()


serve(garbage)
