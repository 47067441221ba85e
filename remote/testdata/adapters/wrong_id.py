# Answers each run request with an id no request has (id + 1000).
import sys; sys.dont_write_bytecode = True  # keep __pycache__ out of testdata
from badadapter import refuse, serve


def wrong_id(request):
    refuse(dict(request, id=request["id"] + 1000))


serve(wrong_id)
