# Declares a feature mergecheck does not know.
import sys; sys.dont_write_bytecode = True  # keep __pycache__ out of testdata
from badadapter import FEATURES, refuse, serve

serve(refuse, features=FEATURES + ["teleport"])
