# llama.cpp's own HTTP server (the llama-server code, through the xllamacpp wheel) for the tests: a model file, a
# port, a context and slots, a ChatML template (the small model's GGUF has none), one thread (2 cores).
# It ends when its parent does: the guard closes its stdin, and a parent that is gone makes it exit too.
import os
import sys
import time

import xllamacpp

model, port, ctx, slots, template = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
params = xllamacpp.CommonParams()
params.model.path = model
params.port = port
params.n_parallel = slots
params.n_ctx = ctx * slots  # llama.cpp divides -c among the slots: each gets `ctx`
params.use_jinja = True
with open(template, encoding="utf-8") as f:
    params.chat_template = f.read()
params.cpuparams.n_threads = 1
params.cpuparams_batch.n_threads = 1
server = xllamacpp.Server(params)
print("listening", server.listening_address, flush=True)
parent = os.getppid()
while os.getppid() == parent:
    time.sleep(1)
