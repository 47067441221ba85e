# A correct but lazy adapter: it refuses every run request as unsupported.
import sys; sys.dont_write_bytecode = True  # keep __pycache__ out of testdata
from badadapter import refuse, serve

serve(refuse)
