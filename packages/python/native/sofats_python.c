/*
 * The in-process interpreter of sofa-ts's Python scenes: CPython embedded in the engine's process,
 * called on the engine's own thread, as SofaPython3 embeds it in SOFA.
 *
 * Both sides keep the wire of the two-process mode (channel.ts, Sofa/_engine.py): frames of bytes.
 * What changes is the transport: the engine's "read" calls Python (exchange: its frames in, Python's
 * answer out), and Python's "read", inside a handler, calls the engine back (to_engine), so that a
 * controller's event is two function calls and no wake-up of another process.
 *
 * JS:     open({ executable, packageDir, pythonPath, cwd }, onFrames) · exchange(Buffer) -> Buffer · close()
 *         · shutdown() · engineCwdChanged()
 * Python: _sofats_native.to_engine(bytes) -> bytes
 *
 * The GIL is held only inside a call into Python (other Python threads a scene starts run while the
 * engine steps). Python's working directory is its own: the process's directory is switched to it
 * while Python runs and back while the engine runs (the two-process mode gave python3 the scene's
 * folder). CPython installs no signal handler here: Ctrl-C and SIGTERM stay the engine's.
 */
#define NAPI_VERSION 8
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <limits.h>
#include <node_api.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <unistd.h>

static int initialised = 0;
static pthread_t engine_thread;
static PyThreadState *engine_state = NULL; /* the engine thread's state while the GIL is released */
static PyObject *py_exchange = NULL;       /* Sofa._inprocess.exchange */
static PyObject *py_close = NULL;          /* Sofa._inprocess.close */
static PyObject *py_shutdown = NULL;       /* Sofa._inprocess.shutdown */
static napi_ref on_frames = NULL;          /* the engine's server of Python's requests */
static napi_env current_env = NULL;        /* valid inside a call from the engine */
static int depth = 0;                      /* nesting of engine -> Python calls */
static napi_ref js_error = NULL;           /* an engine exception met inside Python, rethrown after */

/* ---- working directories -------------------------------------------------------------------- */

/* Each side's folder as a descriptor: switching is one fchdir, and none when both are the same
 * folder. A side that changes its folder says so (Python's os.chdir and Node's process.chdir are
 * wrapped to call python_cwd_changed / engineCwdChanged), and its descriptor is opened again. */
static int python_dir = -1;
static int engine_dir = -1;
static int same_dir = 1;

static void reopen_here(int *fd) {
  int f = open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (f < 0) return; /* the folder is gone: the last one known stays */
  if (*fd >= 0) close(*fd);
  *fd = f;
  struct stat a, b;
  same_dir = python_dir >= 0 && engine_dir >= 0 && fstat(python_dir, &a) == 0 && fstat(engine_dir, &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

static void go_to(int fd) {
  if (!same_dir && fd >= 0 && fchdir(fd) != 0) {
    /* cannot happen for a directory descriptor we hold; the folder stays as it is */
  }
}

/* ---- Ctrl-C inside Python -------------------------------------------------------------------- */

/* The engine's SIGINT and SIGTERM handlers are Node's: they record the signal for the engine's
 * thread to see when it next runs, which a handler stuck in a loop never lets it do. So while the
 * engine is inside Python, a handler of ours comes first: it wakes a watchdog thread and calls
 * Node's, which records the signal as usual. If Python has not returned a second later, the
 * watchdog raises KeyboardInterrupt in Python's threads (PyThreadState_SetAsyncExc: the GIL is
 * handed over within the switch interval); a second signal while Python still has not returned
 * ends the process, as the signal's default action does. Installed on entering Python and removed
 * on leaving it (four sigaction calls per event). */
static const int watched[2] = {SIGINT, SIGTERM};
static struct sigaction engine_action[2];
static int wake_pipe[2] = {-1, -1};
static volatile sig_atomic_t interrupts = 0;

static void on_signal(int sig, siginfo_t *info, void *ctx) {
  int k = sig == SIGINT ? 0 : 1;
  int saved_errno = errno;
  if (interrupts++ > 0) {
    /* the second one: Python did not return; the signal's default action */
    signal(sig, SIG_DFL);
    raise(sig);
  }
  char b = 1;
  if (write(wake_pipe[1], &b, 1) < 0) {
    /* the watchdog's pipe is full: it has a wake-up pending already */
  }
  struct sigaction *prev = &engine_action[k];
  if (prev->sa_flags & SA_SIGINFO) {
    if (prev->sa_sigaction) prev->sa_sigaction(sig, info, ctx);
  } else if (prev->sa_handler == SIG_DFL) {
    signal(sig, SIG_DFL);
    raise(sig);
  } else if (prev->sa_handler != SIG_IGN && prev->sa_handler) {
    prev->sa_handler(sig);
  }
  errno = saved_errno;
}

/* The outermost entries into Python, counted, and whether the engine is inside one now. */
static atomic_ulong entries = 0;
static atomic_int inside = 0;
/* How long a handler may go on after the signal before it is interrupted: a handler that returns
 * within it lets the step end, as for XML scenes (Node's handler acts after the step). */
#define GRACE_MS 1000

static void *watchdog(void *unused) {
  (void)unused;
  for (;;) {
    char b;
    ssize_t r = read(wake_pipe[0], &b, 1);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) return NULL;
    unsigned long entry = entries;
    int stuck = 1;
    for (int ms = 0; ms < GRACE_MS; ms += 10) {
      usleep(10000);
      if (!inside || entries != entry) {
        stuck = 0;
        break;
      }
    }
    if (!stuck) continue;
    PyGILState_STATE g = PyGILState_Ensure();
    PyThreadState *me = PyThreadState_Get();
    for (PyThreadState *t = PyInterpreterState_ThreadHead(PyInterpreterState_Main()); t; t = PyThreadState_Next(t))
      if (t != me) PyThreadState_SetAsyncExc(t->thread_id, PyExc_KeyboardInterrupt);
    PyGILState_Release(g);
  }
}

static void start_watchdog(void) {
  if (pipe(wake_pipe) != 0) {
    wake_pipe[0] = wake_pipe[1] = -1;
    return;
  }
  fcntl(wake_pipe[1], F_SETFL, O_NONBLOCK);
  fcntl(wake_pipe[0], F_SETFD, FD_CLOEXEC);
  fcntl(wake_pipe[1], F_SETFD, FD_CLOEXEC);
  pthread_t t;
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
  /* the watchdog takes no signal: they go to the engine's thread */
  sigset_t all, old;
  sigfillset(&all);
  pthread_sigmask(SIG_BLOCK, &all, &old);
  if (pthread_create(&t, &attr, watchdog, NULL) != 0) {
    close(wake_pipe[0]);
    close(wake_pipe[1]);
    wake_pipe[0] = wake_pipe[1] = -1;
  }
  pthread_sigmask(SIG_SETMASK, &old, NULL);
  pthread_attr_destroy(&attr);
}

static void watch_signals(void) {
  if (wake_pipe[1] < 0) return;
  interrupts = 0;
  struct sigaction ours;
  memset(&ours, 0, sizeof ours);
  ours.sa_sigaction = on_signal;
  ours.sa_flags = SA_SIGINFO | SA_RESTART;
  sigemptyset(&ours.sa_mask);
  for (int k = 0; k < 2; k++) sigaction(watched[k], &ours, &engine_action[k]);
}

static void unwatch_signals(void) {
  if (wake_pipe[1] < 0) return;
  for (int k = 0; k < 2; k++) {
    struct sigaction cur;
    /* the engine's handler back, unless the engine set another one meanwhile */
    if (sigaction(watched[k], NULL, &cur) == 0 && (cur.sa_flags & SA_SIGINFO) && cur.sa_sigaction == on_signal)
      sigaction(watched[k], &engine_action[k], NULL);
  }
}

/* ---- errors ----------------------------------------------------------------------------------- */

static napi_value throw_error(napi_env env, const char *code, const char *message) {
  napi_throw_error(env, code, message);
  return NULL;
}

/* The Python exception in flight, formatted with its traceback, as a JS exception (code PYTHON). */
static napi_value throw_python(napi_env env) {
  PyObject *type, *value, *tb;
  PyErr_Fetch(&type, &value, &tb);
  PyErr_NormalizeException(&type, &value, &tb);
  const char *text = "unknown Python error";
  PyObject *formatted = NULL;
  PyObject *mod = PyImport_ImportModule("traceback");
  if (mod) {
    PyObject *lines = PyObject_CallMethod(mod, "format_exception", "OOO", type ? type : Py_None, value ? value : Py_None, tb ? tb : Py_None);
    if (lines) {
      PyObject *empty = PyUnicode_FromString("");
      formatted = empty ? PyUnicode_Join(empty, lines) : NULL;
      Py_XDECREF(empty);
      Py_DECREF(lines);
    }
    Py_DECREF(mod);
  }
  if (formatted) text = PyUnicode_AsUTF8(formatted);
  PyErr_Clear();
  napi_throw_error(env, "PYTHON", text ? text : "unknown Python error");
  Py_XDECREF(formatted);
  Py_XDECREF(type);
  Py_XDECREF(value);
  Py_XDECREF(tb);
  return NULL;
}

/* ---- Python -> engine ------------------------------------------------------------------------ */

static PyObject *to_engine(PyObject *self, PyObject *arg) {
  (void)self;
  if (depth == 0 || !pthread_equal(pthread_self(), engine_thread) || current_env == NULL) {
    PyErr_SetString(PyExc_RuntimeError, "the sofa-ts engine can only be called from the thread that runs the scene, inside a call of the engine");
    return NULL;
  }
  char *bytes;
  Py_ssize_t n;
  if (PyBytes_AsStringAndSize(arg, &bytes, &n) != 0) return NULL;
  napi_env env = current_env;
  napi_value buf, fn, undefined, result;
  void *data;
  size_t len;
  if (napi_create_buffer_copy(env, (size_t)n, bytes, NULL, &buf) != napi_ok || napi_get_reference_value(env, on_frames, &fn) != napi_ok ||
      napi_get_undefined(env, &undefined) != napi_ok) {
    PyErr_SetString(PyExc_RuntimeError, "the sofa-ts engine cannot be called (N-API)");
    return NULL;
  }
  go_to(engine_dir);
  napi_status st = napi_call_function(env, undefined, fn, 1, &buf, &result);
  go_to(python_dir);
  if (st != napi_ok) {
    bool pending = false;
    napi_is_exception_pending(env, &pending);
    if (pending) {
      napi_value e;
      napi_get_and_clear_last_exception(env, &e);
      if (js_error) napi_delete_reference(env, js_error);
      napi_create_reference(env, e, 1, &js_error);
    }
    PyErr_SetString(PyExc_RuntimeError, "the sofa-ts engine failed while serving a request (its error follows)");
    return NULL;
  }
  bool is_buffer = false;
  napi_is_buffer(env, result, &is_buffer);
  if (!is_buffer || napi_get_buffer_info(env, result, &data, &len) != napi_ok) {
    PyErr_SetString(PyExc_RuntimeError, "the sofa-ts engine answered with something other than bytes");
    return NULL;
  }
  return PyBytes_FromStringAndSize((const char *)data, (Py_ssize_t)len);
}

/* Python changed its working directory (os.chdir, wrapped by Sofa._inprocess). */
static PyObject *python_cwd_changed(PyObject *self, PyObject *unused) {
  (void)self;
  (void)unused;
  reopen_here(&python_dir);
  Py_RETURN_NONE;
}

/* ---- Data.value inside a handler, in C ------------------------------------------------------ */

/* What Sofa.Core.Data's value property does inside a controller's handler (Core.py), for the cases
 * a controller meets ten times a step: a read answered from the values the engine sent with the
 * event (a float, an int, a bool in C; an array by _values.read_value), a write of a float, a list
 * of floats or a float64 array recorded with the script's file and line. The records are byte for
 * byte those of _values.write_value and _engine.caller_record; every other case calls the Python
 * property itself (the two-process mode's, unchanged). */
static PyObject *engine_module, *values_module, *python_get, *python_set, *ndarray_type;
static PyObject *s_engine, *s_handler_depth, *s_reads, *s_prefetch, *s_writes, *s_key, *s_wkey, *s_type;
static PyObject *s_read_value, *s_write_value, *s_get, *s_encoded, *s_encoded_file;

static PyObject *accelerate(PyObject *self, PyObject *args) {
  (void)self;
  PyObject *em, *vm, *g, *st, *nd;
  if (!PyArg_ParseTuple(args, "OOOOO", &em, &vm, &g, &st, &nd)) return NULL;
  Py_XSETREF(engine_module, Py_NewRef(em));
  Py_XSETREF(values_module, Py_NewRef(vm));
  Py_XSETREF(python_get, Py_NewRef(g));
  Py_XSETREF(python_set, Py_NewRef(st));
  Py_XSETREF(ndarray_type, nd == Py_None ? NULL : Py_NewRef(nd));
#define INTERN(v, text) \
  if (!v && !(v = PyUnicode_InternFromString(text))) return NULL
  INTERN(s_engine, "_engine");
  INTERN(s_handler_depth, "handler_depth");
  INTERN(s_reads, "reads");
  INTERN(s_prefetch, "prefetch");
  INTERN(s_writes, "writes");
  INTERN(s_key, "_key");
  INTERN(s_wkey, "_wkey");
  INTERN(s_type, "_type");
  INTERN(s_read_value, "read_value");
  INTERN(s_write_value, "write_value");
  INTERN(s_get, "get");
  INTERN(s_encoded, "_encoded");
  INTERN(s_encoded_file, "encoded_file");
#undef INTERN
  Py_RETURN_NONE;
}

/* The engine object while a handler runs (a new reference), else NULL (no error set). */
static PyObject *handler_engine(void) {
  PyObject *eng = PyObject_GetAttr(engine_module, s_engine);
  if (!eng) return NULL;
  if (eng == Py_None) {
    Py_DECREF(eng);
    return NULL;
  }
  PyObject *depth = PyObject_GetAttr(eng, s_handler_depth);
  int inside = depth ? PyObject_IsTrue(depth) : -1;
  Py_XDECREF(depth);
  if (inside <= 0) {
    Py_DECREF(eng);
    return NULL;
  }
  return eng;
}

static double f64_at(const char *p) {
  double x;
  memcpy(&x, p, 8);
  return x;
}

static PyObject *data_get(PyObject *self, PyObject *data) {
  (void)self;
  PyObject *eng = handler_engine();
  if (!eng) return PyErr_Occurred() ? NULL : PyObject_CallOneArg(python_get, data);
  PyObject *result = NULL, *key = NULL, *reads = NULL, *prefetch = NULL, *type = NULL;
  if (!(key = PyObject_GetAttr(data, s_key)) || !(reads = PyObject_GetAttr(eng, s_reads)) || PyList_Append(reads, key) != 0 ||
      !(prefetch = PyObject_GetAttr(eng, s_prefetch)) || !(type = PyObject_GetAttr(data, s_type)))
    goto done;
  PyObject *pre = PyDict_GetItemWithError(prefetch, key); /* borrowed */
  if (!pre && PyErr_Occurred()) goto done;
  if (pre && PyTuple_Check(pre) && PyTuple_GET_SIZE(pre) == 2 && PyBytes_Check(PyTuple_GET_ITEM(pre, 0))) {
    PyObject *frame = PyTuple_GET_ITEM(pre, 0);
    Py_ssize_t off = PyLong_AsSsize_t(PyTuple_GET_ITEM(pre, 1));
    if (off < 0 && PyErr_Occurred()) goto done;
    const char *b = PyBytes_AS_STRING(frame);
    Py_ssize_t n = PyBytes_GET_SIZE(frame);
    int tag = off < n ? (unsigned char)b[off] : -1;
    if (tag == 0 && off + 9 <= n) {
      result = PyFloat_FromDouble(f64_at(b + off + 1)); /* _V_FLOAT */
    } else if (tag == 1 && off + 9 <= n) {
      /* _V_INT: an int, a float for a real type (read_value) */
      double x = f64_at(b + off + 1);
      int real = PyUnicode_CompareWithASCIIString(type, "double") == 0 || PyUnicode_CompareWithASCIIString(type, "float") == 0;
      PyObject *i = PyLong_FromDouble(x);
      if (i && real) {
        result = PyNumber_Float(i);
        Py_DECREF(i);
      } else {
        result = i;
      }
    } else if (tag == 2 && off + 2 <= n) {
      result = PyBool_FromLong(b[off + 1] != 0); /* _V_BOOL */
    } else {
      result = PyObject_CallMethodObjArgs(values_module, s_read_value, frame, PyTuple_GET_ITEM(pre, 1), type, NULL);
    }
  } else if (pre) {
    result = PyObject_CallMethodObjArgs(values_module, s_read_value, PyTuple_GetItem(pre, 0), PyTuple_GetItem(pre, 1), type, NULL);
  } else {
    PyObject *wkey = PyObject_GetAttr(data, s_wkey);
    if (wkey) result = PyObject_CallMethodObjArgs(eng, s_get, wkey, type, NULL);
    Py_XDECREF(wkey);
  }
done:
  Py_XDECREF(key);
  Py_XDECREF(reads);
  Py_XDECREF(prefetch);
  Py_XDECREF(type);
  Py_DECREF(eng);
  return result;
}

/* The binary record of a value (_values.write_value's first three cases), or NULL with no error
 * set when it is another case. */
static PyObject *fast_write_value(PyObject *v) {
  if (PyFloat_CheckExact(v)) {
    char rec[9];
    double x = PyFloat_AS_DOUBLE(v);
    rec[0] = 0; /* _W_NUM */
    memcpy(rec + 1, &x, 8);
    return PyBytes_FromStringAndSize(rec, 9);
  }
  if (PyList_CheckExact(v)) {
    Py_ssize_t n = PyList_GET_SIZE(v);
    if (n == 0) return NULL;
    for (Py_ssize_t i = 0; i < n; i++)
      if (!PyFloat_CheckExact(PyList_GET_ITEM(v, i))) return NULL;
    PyObject *out = PyBytes_FromStringAndSize(NULL, 5 + 8 * n);
    if (!out) return NULL;
    char *p = PyBytes_AS_STRING(out);
    uint32_t count = (uint32_t)n;
    p[0] = 2; /* _W_ARRAY */
    memcpy(p + 1, &count, 4);
    for (Py_ssize_t i = 0; i < n; i++) {
      double x = PyFloat_AS_DOUBLE(PyList_GET_ITEM(v, i));
      memcpy(p + 5 + 8 * i, &x, 8);
    }
    return out;
  }
  if (ndarray_type && Py_TYPE(v) == (PyTypeObject *)ndarray_type) {
    Py_buffer view;
    if (PyObject_GetBuffer(v, &view, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) != 0) {
      PyErr_Clear();
      return NULL;
    }
    PyObject *out = NULL;
    if (view.itemsize == 8 && view.format && (strcmp(view.format, "d") == 0 || strcmp(view.format, "<d") == 0 || strcmp(view.format, "=d") == 0)) {
      uint32_t count = (uint32_t)(view.len / 8);
      out = PyBytes_FromStringAndSize(NULL, 5 + view.len);
      if (out) {
        char *p = PyBytes_AS_STRING(out);
        p[0] = 2; /* _W_ARRAY */
        memcpy(p + 1, &count, 4);
        memcpy(p + 5, view.buf, (size_t)view.len);
      }
    }
    PyBuffer_Release(&view);
    return out;
  }
  return NULL;
}

/* _engine.caller_record: the file and line of the innermost frame outside the Sofa package. */
static PyObject *caller_record(void) {
  PyObject *encoded = PyObject_GetAttr(engine_module, s_encoded);
  if (!encoded) return NULL;
  PyFrameObject *f = PyEval_GetFrame();
  Py_XINCREF(f);
  PyObject *result = NULL;
  while (f) {
    PyCodeObject *code = PyFrame_GetCode(f);
    PyObject *name = code->co_filename;
    PyObject *enc = PyDict_GetItemWithError(encoded, name); /* borrowed */
    Py_XINCREF(enc);
    if (!enc && !PyErr_Occurred()) enc = PyObject_CallMethodOneArg(engine_module, s_encoded_file, name);
    Py_DECREF(code);
    if (!enc) break;
    if (PyBytes_GET_SIZE(enc) > 0) {
      uint32_t line = (uint32_t)PyFrame_GetLineNumber(f);
      Py_ssize_t k = PyBytes_GET_SIZE(enc);
      result = PyBytes_FromStringAndSize(NULL, k + 4);
      if (result) {
        memcpy(PyBytes_AS_STRING(result), PyBytes_AS_STRING(enc), (size_t)k);
        memcpy(PyBytes_AS_STRING(result) + k, &line, 4);
      }
      Py_DECREF(enc);
      break;
    }
    Py_DECREF(enc);
    PyFrameObject *back = PyFrame_GetBack(f);
    Py_DECREF(f);
    f = back;
  }
  Py_XDECREF(f);
  Py_DECREF(encoded);
  if (!result && !PyErr_Occurred()) result = PyBytes_FromStringAndSize("\0\0\0\0\0\0\0\0", 8); /* _NOWHERE */
  return result;
}

static PyObject *data_set(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  (void)self;
  if (nargs != 2) {
    PyErr_SetString(PyExc_TypeError, "data_set(data, value)");
    return NULL;
  }
  PyObject *data = args[0], *v = args[1];
  PyObject *eng = Py_TYPE(v) == Py_TYPE(data) ? NULL : handler_engine();
  if (!eng) return PyErr_Occurred() ? NULL : PyObject_CallFunctionObjArgs(python_set, data, v, NULL);
  PyObject *ret = NULL, *w = NULL, *rec = NULL, *wkey = NULL, *writes = NULL, *prefetch = NULL, *all = NULL;
  w = fast_write_value(v);
  if (!w && !PyErr_Occurred()) w = PyObject_CallMethodOneArg(values_module, s_write_value, v);
  if (!w || !PyBytes_Check(w) || !(rec = caller_record()) || !(wkey = PyObject_GetAttr(data, s_wkey)) || !PyBytes_Check(wkey)) goto done;
  Py_ssize_t a = PyBytes_GET_SIZE(wkey), b = PyBytes_GET_SIZE(w), c = PyBytes_GET_SIZE(rec);
  if (!(all = PyBytes_FromStringAndSize(NULL, a + b + c))) goto done;
  memcpy(PyBytes_AS_STRING(all), PyBytes_AS_STRING(wkey), (size_t)a);
  memcpy(PyBytes_AS_STRING(all) + a, PyBytes_AS_STRING(w), (size_t)b);
  memcpy(PyBytes_AS_STRING(all) + a + b, PyBytes_AS_STRING(rec), (size_t)c);
  if (!(writes = PyObject_GetAttr(eng, s_writes)) || PyList_Append(writes, all) != 0) goto done;
  /* a write may change what other Data show (links, engines): they are read again */
  if (!(prefetch = PyObject_GetAttr(eng, s_prefetch))) goto done;
  if (PyDict_CheckExact(prefetch)) PyDict_Clear(prefetch);
  else {
    PyObject *r = PyObject_CallMethod(prefetch, "clear", NULL);
    if (!r) goto done;
    Py_DECREF(r);
  }
  ret = Py_NewRef(Py_None);
done:
  Py_XDECREF(w);
  Py_XDECREF(rec);
  Py_XDECREF(wkey);
  Py_XDECREF(writes);
  Py_XDECREF(prefetch);
  Py_XDECREF(all);
  Py_DECREF(eng);
  return ret;
}

static PyMethodDef native_methods[] = {
    {"to_engine", to_engine, METH_O, "Sends frames to the sofa-ts engine, which serves them; returns its answers."},
    {"python_cwd_changed", python_cwd_changed, METH_NOARGS, "Python's working directory changed: the engine switches to the new one."},
    {"accelerate", accelerate, METH_VARARGS, "accelerate(_engine, _values, get, set, ndarray): Data.value's handler paths in C."},
    {"data_get", data_get, METH_O, "Data.value, read."},
    {"data_set", (PyCFunction)(void (*)(void))data_set, METH_FASTCALL, "Data.value, written."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef native_module = {PyModuleDef_HEAD_INIT, "_sofats_native", NULL, -1, native_methods, NULL, NULL, NULL, NULL};

static PyObject *init_native_module(void) { return PyModule_Create(&native_module); }

/* ---- engine -> Python ------------------------------------------------------------------------ */

static char *string_property(napi_env env, napi_value obj, const char *name) {
  napi_value v;
  size_t n = 0;
  if (napi_get_named_property(env, obj, name, &v) != napi_ok) return NULL;
  napi_valuetype t;
  napi_typeof(env, v, &t);
  if (t != napi_string) return NULL;
  napi_get_value_string_utf8(env, v, NULL, 0, &n);
  char *s = malloc(n + 1);
  if (!s) return NULL;
  napi_get_value_string_utf8(env, v, s, n + 1, &n);
  return s;
}

/* Enters Python on the engine thread (the GIL taken at the outermost call). */
static void enter(napi_env env) {
  if (depth++ == 0 && engine_state != NULL) {
    entries++;
    inside = 1;
    watch_signals();
    PyEval_RestoreThread(engine_state);
    engine_state = NULL;
  }
  current_env = env;
  go_to(python_dir);
}

static void leave(void) {
  go_to(engine_dir);
  if (--depth == 0) {
    engine_state = PyEval_SaveThread();
    unwatch_signals();
    inside = 0;
  }
}

/* The scene's folder, sys.path's first entries, and the engine's server: a fresh start for Python's side. */
static napi_value begin_session(napi_env env, napi_value opts, napi_value server) {
  char *pkg = string_property(env, opts, "packageDir");
  char *cwd = string_property(env, opts, "cwd");
  napi_value list;
  uint32_t n = 0;
  if (napi_get_named_property(env, opts, "pythonPath", &list) != napi_ok || napi_get_array_length(env, list, &n) != napi_ok) n = 0;
  reopen_here(&engine_dir);
  if (cwd && chdir(cwd) == 0) {
    reopen_here(&python_dir);
    go_to(engine_dir);
  }
  if (on_frames) napi_delete_reference(env, on_frames);
  napi_create_reference(env, server, 1, &on_frames);
  enter(env);
  PyObject *paths = PyList_New(0);
  for (uint32_t i = 0; paths && i < n; i++) {
    napi_value e;
    size_t len = 0;
    napi_get_element(env, list, i, &e);
    napi_get_value_string_utf8(env, e, NULL, 0, &len);
    char *s = malloc(len + 1);
    if (!s) break;
    napi_get_value_string_utf8(env, e, s, len + 1, &len);
    PyObject *u = PyUnicode_DecodeFSDefault(s);
    if (u) {
      PyList_Append(paths, u);
      Py_DECREF(u);
    }
    free(s);
  }
  napi_value ret = NULL;
  PyObject *sys_path = PySys_GetObject("path"); /* borrowed */
  PyObject *upkg = pkg ? PyUnicode_DecodeFSDefault(pkg) : NULL;
  if (sys_path && upkg && PySequence_Contains(sys_path, upkg) == 0) PyList_Insert(sys_path, 0, upkg);
  Py_XDECREF(upkg);
  PyObject *mod = PyImport_ImportModule("Sofa._inprocess");
  PyObject *r = NULL;
  if (mod && paths) {
    if (!py_exchange) {
      py_exchange = PyObject_GetAttrString(mod, "exchange");
      py_close = PyObject_GetAttrString(mod, "close");
      py_shutdown = PyObject_GetAttrString(mod, "shutdown");
    }
    if (py_exchange && py_close && py_shutdown) r = PyObject_CallMethod(mod, "begin", "O", paths);
  }
  Py_XDECREF(mod);
  if (!r) throw_python(env);
  else {
    Py_DECREF(r);
    napi_get_boolean(env, true, &ret);
  }
  Py_XDECREF(paths);
  leave();
  free(pkg);
  free(cwd);
  return ret;
}

/* open({ executable, packageDir, pythonPath, cwd }, onFrames): starts the interpreter once per process. */
static napi_value js_open(napi_env env, napi_callback_info info) {
  size_t argc = 2;
  napi_value argv[2];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  if (argc < 2) return throw_error(env, "USAGE", "open(options, onFrames)");
  if (initialised && !pthread_equal(pthread_self(), engine_thread))
    return throw_error(env, "THREAD", "the in-process interpreter belongs to another thread of this process");
  if (!initialised) {
    /* numpy's extension modules find CPython's symbols in the global scope: make libpython's global */
    Dl_info dl;
    if (dladdr((void *)&Py_InitializeFromConfig, &dl) && dl.dli_fname) dlopen(dl.dli_fname, RTLD_NOW | RTLD_NOLOAD | RTLD_GLOBAL);
    char *exe = string_property(env, argv[0], "executable");
    if (PyImport_AppendInittab("_sofats_native", init_native_module) != 0) {
      free(exe);
      return throw_error(env, "PYTHON", "cannot register the _sofats_native module");
    }
    PyConfig config;
    PyConfig_InitPythonConfig(&config);
    config.install_signal_handlers = 0; /* SIGINT/SIGTERM stay the engine's */
    config.buffered_stdio = 0;          /* a scene's prints appear as they happen */
    config.write_bytecode = 0;          /* no __pycache__ beside the user's scripts */
    config.parse_argv = 0;
    PyStatus st = PyStatus_Ok();
    if (exe) {
      st = PyConfig_SetBytesString(&config, &config.program_name, exe);
      if (!PyStatus_Exception(st)) st = PyConfig_SetBytesString(&config, &config.executable, exe);
    }
    if (!PyStatus_Exception(st)) st = Py_InitializeFromConfig(&config);
    PyConfig_Clear(&config);
    free(exe);
    if (PyStatus_Exception(st)) {
      char msg[512];
      snprintf(msg, sizeof msg, "CPython did not start: %s%s%s", st.func ? st.func : "", st.func ? ": " : "", st.err_msg ? st.err_msg : "");
      return throw_error(env, "PYTHON", msg);
    }
    initialised = 1;
    engine_thread = pthread_self();
    start_watchdog();
    engine_state = PyEval_SaveThread();
  }
  return begin_session(env, argv[0], argv[1]);
}

/* exchange(frames): Python serves them; returns its answer frames. */
static napi_value js_exchange(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  if (!initialised || !py_exchange) return throw_error(env, "CLOSED", "the in-process interpreter is not open");
  if (!pthread_equal(pthread_self(), engine_thread)) return throw_error(env, "THREAD", "the in-process interpreter belongs to another thread of this process");
  void *data;
  size_t len;
  if (argc < 1 || napi_get_buffer_info(env, argv[0], &data, &len) != napi_ok) return throw_error(env, "USAGE", "exchange(Buffer)");
  napi_env outer_env = current_env;
  enter(env);
  napi_value ret = NULL;
  PyObject *arg = PyBytes_FromStringAndSize((const char *)data, (Py_ssize_t)len);
  PyObject *r = arg ? PyObject_CallOneArg(py_exchange, arg) : NULL;
  Py_XDECREF(arg);
  if (js_error) {
    /* the engine's own exception, met while it served Python (even if Python caught what it
     * became there): it goes on up the engine's stack */
    PyErr_Clear();
    napi_value e;
    napi_get_reference_value(env, js_error, &e);
    napi_delete_reference(env, js_error);
    js_error = NULL;
    napi_throw(env, e);
  } else if (r && PyBytes_Check(r)) {
    napi_create_buffer_copy(env, (size_t)PyBytes_GET_SIZE(r), PyBytes_AS_STRING(r), NULL, &ret);
  } else if (r) {
    throw_error(env, "PYTHON", "Sofa._inprocess.exchange returned something other than bytes");
  } else {
    throw_python(env);
  }
  Py_XDECREF(r);
  leave();
  current_env = outer_env;
  return ret;
}

/* close(): Python's side of the session ends (the interpreter stays, for the next scene). */
static napi_value js_close(napi_env env, napi_callback_info info) {
  (void)info;
  if (!initialised || !py_close || !pthread_equal(pthread_self(), engine_thread)) return NULL;
  napi_env outer_env = current_env;
  enter(env);
  PyObject *r = PyObject_CallNoArgs(py_close);
  if (!r) PyErr_Clear();
  Py_XDECREF(r);
  leave();
  current_env = outer_env;
  if (depth == 0 && on_frames) {
    napi_delete_reference(env, on_frames);
    on_frames = NULL;
  }
  return NULL;
}

/* shutdown(): the engine's process exits: the scripts' atexit functions run and their files are
 * flushed (CPython is not finalised: a thread a scene left running would be waited for). */
static napi_value js_shutdown(napi_env env, napi_callback_info info) {
  (void)info;
  if (!initialised || !py_shutdown || depth != 0 || !pthread_equal(pthread_self(), engine_thread)) return NULL;
  enter(env);
  PyObject *r = PyObject_CallNoArgs(py_shutdown);
  if (!r) PyErr_Clear();
  Py_XDECREF(r);
  leave();
  return NULL;
}

/* engineCwdChanged(): the engine changed its working directory (process.chdir, wrapped). */
static napi_value js_engine_cwd_changed(napi_env env, napi_callback_info info) {
  (void)env;
  (void)info;
  if (initialised) reopen_here(&engine_dir);
  return NULL;
}

NAPI_MODULE_INIT() {
  napi_property_descriptor props[] = {
      {"open", NULL, js_open, NULL, NULL, NULL, napi_default, NULL},
      {"exchange", NULL, js_exchange, NULL, NULL, NULL, napi_default, NULL},
      {"close", NULL, js_close, NULL, NULL, NULL, napi_default, NULL},
      {"engineCwdChanged", NULL, js_engine_cwd_changed, NULL, NULL, NULL, napi_default, NULL},
      {"shutdown", NULL, js_shutdown, NULL, NULL, NULL, napi_default, NULL},
  };
  napi_define_properties(env, exports, sizeof props / sizeof props[0], props);
  return exports;
}
