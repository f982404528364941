"""gpux and PyTorch sharing device memory through DLPack, with ctypes (no binding needed).

The GPU machine's test with a real client (issue 22): run there after a build,

    python3 tests/python/torch_dlpack.py build-gpu/lib/libgpux.so

1. PyTorch -> gpux: a CUDA tensor's versioned DLPack capsule (t.__dlpack__(max_version=
   (1, 0))) goes to gpux_array_from_dlpack; gpux doubles it in place; PyTorch reads the
   doubled values from the same tensor (no copy); releasing the gpux array hands the tensor
   back (the deleter), after which PyTorch still owns and reads it. The legacy capsule too.
2. gpux -> PyTorch: gpux_array_to_dlpack (both ABIs) in a capsule for torch.from_dlpack;
   PyTorch triples it in place; gpux_array_read sees the tripled values (no copy).
Exit status 0 when every check holds, 77 without torch or a CUDA device, 1 otherwise.
"""
import ctypes
import sys

GPUX_BACKEND_CUDA = 2
GPUX_FLOAT32 = 0
GPUX_MUL = 2

py = ctypes.pythonapi
py.PyCapsule_GetPointer.restype = ctypes.c_void_p
py.PyCapsule_GetPointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
py.PyCapsule_SetName.restype = ctypes.c_int
py.PyCapsule_SetName.argtypes = [ctypes.py_object, ctypes.c_char_p]
py.PyCapsule_New.restype = ctypes.py_object
py.PyCapsule_New.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
NAMES = {True: (b"dltensor_versioned", b"used_dltensor_versioned"),
         False: (b"dltensor", b"used_dltensor")}

failures = []


def check(cond, what):
    print(("ok    " if cond else "FAIL  ") + what)
    if not cond:
        failures.append(what)


def main():
    try:
        import torch
    except ImportError:
        print("torch_dlpack: no torch")
        return 77
    if not torch.cuda.is_available():
        print("torch_dlpack: no CUDA device")
        return 77
    lib = ctypes.CDLL(sys.argv[1] if len(sys.argv) > 1 else "libgpux.so")
    lib.gpux_last_error_message.restype = ctypes.c_char_p
    vp = ctypes.c_void_p

    def ok(status, what):
        if status != 0:
            raise RuntimeError("%s: status %d: %s" % (what, status,
                                                     lib.gpux_last_error_message().decode()))

    ctx = vp()
    ok(lib.gpux_context_create(ctypes.byref(ctx), GPUX_BACKEND_CUDA, 0), "gpux_context_create")

    # 1. PyTorch -> gpux, both ABIs
    for versioned in (True, False):
        abi = "versioned" if versioned else "legacy"
        t = torch.arange(1000, dtype=torch.float32, device="cuda") * 0.5 - 7
        before = t.clone()
        torch.cuda.synchronize()  # PyTorch's work on t is done before gpux's stream uses it
        cap = t.__dlpack__(max_version=(1, 0)) if versioned else t.__dlpack__()
        name, used = NAMES[versioned]
        try:
            ptr = py.PyCapsule_GetPointer(cap, name)
        except ValueError:
            check(False, "PyTorch %s gave a %s capsule" % (torch.__version__, abi))
            continue
        arr = vp()
        fn = lib.gpux_array_from_dlpack if versioned else lib.gpux_array_from_dlpack_legacy
        ok(fn(ctypes.byref(arr), ctx, vp(ptr)), "gpux_array_from_dlpack (%s)" % abi)
        py.PyCapsule_SetName(cap, used)  # the consumer took it: the capsule must not free it
        ok(lib.gpux_binary_scalar_into(arr, GPUX_MUL, arr, ctypes.c_double(2.0)), "x *= 2")
        ok(lib.gpux_context_synchronize(ctx), "synchronize")
        check(torch.equal(t, before * 2), "PyTorch -> gpux (%s): PyTorch sees gpux's write in "
              "its own tensor" % abi)
        lib.gpux_array_release(arr)  # the deleter: PyTorch's reference goes back
        check(torch.equal(t, before * 2), "PyTorch -> gpux (%s): the tensor is PyTorch's after "
              "the release" % abi)

    # 2. gpux -> PyTorch, both ABIs
    n = 777
    host = (ctypes.c_float * n)(*[float(i % 13) - 4 for i in range(n)])
    shape = (ctypes.c_int64 * 1)(n)
    for versioned in (True, False):
        abi = "versioned" if versioned else "legacy"
        a = vp()
        ok(lib.gpux_array_from_host(ctypes.byref(a), ctx, GPUX_FLOAT32, 1, shape, host),
           "gpux_array_from_host")
        mt = vp()
        fn = lib.gpux_array_to_dlpack if versioned else lib.gpux_array_to_dlpack_legacy
        ok(fn(ctypes.byref(mt), a), "gpux_array_to_dlpack (%s)" % abi)
        ok(lib.gpux_context_synchronize(ctx), "synchronize")  # before PyTorch's stream reads
        name, _ = NAMES[versioned]
        cap = py.PyCapsule_New(mt, name, None)
        try:
            x = torch.from_dlpack(cap)
        except Exception as e:  # a PyTorch that reads only the legacy capsule
            check(False, "torch.from_dlpack of a %s capsule: %s" % (abi, e))
            lib.gpux_array_release(a)
            continue
        want = torch.tensor(list(host), dtype=torch.float32, device="cuda")
        check(x.device.type == "cuda" and torch.equal(x, want),
              "gpux -> PyTorch (%s): the values" % abi)
        x.mul_(3)
        torch.cuda.synchronize()
        back = (ctypes.c_float * n)()
        ok(lib.gpux_array_read(a, back, ctypes.c_size_t(n * 4)), "gpux_array_read")
        check(all(back[i] == host[i] * 3 for i in range(n)),
              "gpux -> PyTorch (%s): gpux sees PyTorch's write in its own array" % abi)
        lib.gpux_array_release(a)
        del x  # PyTorch calls the tensor's deleter: gpux's view goes
        torch.cuda.synchronize()
    lib.gpux_context_release(ctx)
    print("torch_dlpack: %d failure(s) (PyTorch %s)" % (len(failures), torch.__version__))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
