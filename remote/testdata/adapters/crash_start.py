# Exits before its hello, with a line of stderr.
import sys; sys.dont_write_bytecode = True  # keep __pycache__ out of testdata
from badadapter import log

log("bad adapter: crashing before the handshake")
sys.exit(3)
