# Speaks an older protocol version in its hello.
import sys; sys.dont_write_bytecode = True  # keep __pycache__ out of testdata
from badadapter import refuse, serve

serve(refuse, protocol="mergecheck/0")
