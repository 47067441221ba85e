# Prints a banner on stdout before its hello, as an engine's start-up
# message would, and a warning on stderr; then waits on its input.
import sys; sys.dont_write_bytecode = True  # keep __pycache__ out of testdata
from badadapter import log

print("MyEngine 2.1 starting up, loading the card database...")
sys.stdout.flush()
log("warning: no config file, using the defaults")
for line in sys.stdin:
    pass
