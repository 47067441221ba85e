# Exits with status 3 on the first run request, after a line of stderr.
import sys; sys.dont_write_bytecode = True  # keep __pycache__ out of testdata
from badadapter import log, serve


def crash(request):
    log("bad adapter: crashing now")
    sys.exit(3)


serve(crash)
